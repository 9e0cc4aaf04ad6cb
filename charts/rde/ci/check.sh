#!/usr/bin/env bash
# The chart's checks, run by the test command: helm lint, every named scenario rendered and
# compared with its committed golden file, every rendered manifest validated against the
# Kubernetes API schemas of each supported release, and every values file under ci/invalid
# refused (saying what its "# refused with:" line names). Helm, kubeconform and the schemas come
# from Go modules, built and cached in .tools.
#   charts/rde/ci/check.sh            check
#   charts/rde/ci/check.sh --update   rewrite the golden files from the current templates
set -euo pipefail
ci="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
chart="$(dirname "$ci")"
root="$(cd "$chart/../.." && pwd)"

HELM_VERSION=v3.19.0
KUBECONFORM_VERSION=v0.7.0
PROMETHEUS_OPERATOR_VERSION=v0.85.0
# The oldest and newest Kubernetes releases the chart supports.
KUBERNETES_VERSIONS=(1.30.14 1.34.2)

# helm 3.19 needs Go 1.24 or newer to build.
GO_TOOLCHAIN=1.24.13

tools="$root/.tools/chart"
export GOBIN="$tools/bin" GOFLAGS=-mod=mod
helm="$GOBIN/helm-$HELM_VERSION"
kubeconform="$GOBIN/kubeconform-$KUBECONFORM_VERSION"

# A Go new enough for helm: the machine's, else the toolchain module from the Go module proxy,
# fetched with whatever go there is (Debian's golang-go, installed if none).
ensure_go() {
  if command -v go >/dev/null && [ "$(printf '%s\n' "go$GO_TOOLCHAIN" "$(go env GOVERSION)" | sort -V | head -n1)" = "go$GO_TOOLCHAIN" ]; then
    return
  fi
  local local_go="$tools/go-$GO_TOOLCHAIN"
  if [ ! -x "$local_go/bin/go" ]; then
    command -v go >/dev/null || { echo "chart check: installing Debian's golang-go" >&2; apt-get install -y -qq golang-go >&2; }
    local module
    module="$(module_dir golang.org/toolchain "v0.0.1-go$GO_TOOLCHAIN.linux-$(go env GOARCH)")"
    # Module files are read-only and lose their modes: copy, then mark the tools executable.
    rm -rf "$local_go" && cp -r "$module" "$local_go" && chmod -R u+w "$local_go"
    chmod +x "$local_go"/bin/* "$local_go"/pkg/tool/*/*
  fi
  export PATH="$local_go/bin:$PATH" GOTOOLCHAIN=local
}

# Builds a Go command once per version; later runs reuse the binary.
go_tool() {
  local binary="$1" package="$2" version="$3"
  [ -x "$binary" ] && return
  echo "chart check: building $package@$version" >&2
  go install "$package@$version"
  mv "$GOBIN/$(basename "$package")" "$binary"
}

# The directory holding a Go module's files, downloaded into the module cache once.
module_dir() {
  go mod download -json "$1@$2" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))'
}

schemas_for() {
  local version="$1" out="$tools/schemas/v$1-standalone-strict"
  if [ ! -f "$out/.complete" ]; then
    local kubernetes operator
    kubernetes="$(module_dir k8s.io/kubernetes "v$version")"
    operator="$(module_dir github.com/prometheus-operator/prometheus-operator "$PROMETHEUS_OPERATOR_VERSION")"
    node "$ci/kube-schemas.js" "$out" "$kubernetes/api/openapi-spec/swagger.json" \
      "$operator/jsonnet/prometheus-operator/servicemonitors-crd.json" >&2
    touch "$out/.complete"
  fi
}

render() {
  "$helm" template rde "$chart" --namespace rde --values "$1"
}

ensure_go
go_tool "$helm" helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
go_tool "$kubeconform" github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
for version in "${KUBERNETES_VERSIONS[@]}"; do schemas_for "$version"; done

failed=0
fail() { echo "chart check FAILED: $*" >&2; failed=1; }
rendered="$(mktemp -d)"
trap 'rm -rf "$rendered"' EXIT

for scenario in "$ci"/scenarios/*.yaml; do
  name="$(basename "$scenario" .yaml)"
  golden="$ci/golden/$name.yaml"
  "$helm" lint --strict --quiet "$chart" --values "$scenario" >/dev/null || fail "helm lint ($name)"
  if ! render "$scenario" >"$rendered/$name.yaml"; then fail "helm template ($name)"; continue; fi
  if [ "${1:-}" = "--update" ]; then
    mkdir -p "$ci/golden" && cp "$rendered/$name.yaml" "$golden"
  elif ! diff -u "$golden" "$rendered/$name.yaml"; then
    fail "$name renders differently from ci/golden/$name.yaml (run charts/rde/ci/check.sh --update and review the diff)"
  fi
  for version in "${KUBERNETES_VERSIONS[@]}"; do
    "$kubeconform" -strict -summary -kubernetes-version "$version" \
      -schema-location "$tools/schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      "$rendered/$name.yaml" || fail "$name is not valid Kubernetes $version"
  done
done

for invalid in "$ci"/invalid/*.yaml; do
  name="$(basename "$invalid" .yaml)"
  # The file's "# refused with: <text>" line, when it has one, is what the refusal must say: a
  # refusal for another reason (a typo in the scenario) would otherwise pass unnoticed.
  expected="$(sed -n 's/^# refused with: //p' "$invalid")"
  if render "$invalid" >/dev/null 2>"$rendered/error"; then
    fail "ci/invalid/$name.yaml was accepted"
  elif [ -n "$expected" ] && ! grep -qF -- "$expected" "$rendered/error"; then
    fail "ci/invalid/$name.yaml was refused without saying \"$expected\": $(cat "$rendered/error")"
  else
    echo "refused as expected: ci/invalid/$name.yaml: $(grep -v -e '^$' -e '--debug' "$rendered/error" | tail -n1)"
  fi
done

[ "$failed" -eq 0 ] && echo "chart check: every scenario lints, matches its golden file and validates"
exit "$failed"
