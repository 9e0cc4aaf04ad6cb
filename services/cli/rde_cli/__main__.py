"""Entry point of the zipapp: `python3 rde.pyz …`."""

import sys

from rde_cli.main import main

sys.exit(main(sys.argv[1:]))
