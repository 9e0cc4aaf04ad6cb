import { callerIn, creation, csvOf, startDatasetService } from './service';

const alice = callerIn('ws_alice');

describe('ExportCsv', () => {
  let service: Awaited<ReturnType<typeof startDatasetService>>;
  beforeEach(async () => {
    service = await startDatasetService();
  });
  afterEach(() => service.stop());

  async function exportRows(rows: object[]) {
    const { dataset } = await service.client.createDataset(creation(rows), { caller: alice });
    return csvOf(service.client, dataset!.id, alice);
  }

  test('a header of the columns, then one line per row; missing and null cells are empty', async () => {
    const { text } = await exportRows([
      { name: 'Ann', title: 'CTO' },
      { name: 'Bo', email: 'bo@x.io' },
      { title: null },
    ]);
    expect(text).toBe('name,title,email\nAnn,CTO,\nBo,,bo@x.io\n,,\n');
  });

  test('commas, quotes and newlines are quoted; nested values are JSON in their cell; booleans read as words', async () => {
    const { text } = await exportRows([
      {
        'a,b': 'x, y',
        quote: 'say "hi"',
        lines: 'one\ntwo',
        nested: { city: 'Paris', tags: ['a', 'b'] },
        list: [1, 'two'],
        yes: true,
        no: false,
        n: 0,
      },
    ]);
    expect(text).toBe(
      '"a,b",quote,lines,nested,list,yes,no,n\n' +
        '"x, y","say ""hi""","one\ntwo","{""city"":""Paris"",""tags"":[""a"",""b""]}","[1,""two""]",true,false,0\n',
    );
  });

  test('CSV injection: cells and headers starting =, +, -, @, tab or CR get a leading quote; numbers stay numbers', async () => {
    const { text } = await exportRows([
      {
        '=cmd': '=HYPERLINK("http://x","y")',
        plus: '+1+2',
        minus: '-2+3',
        at: '@SUM(A1)',
        tab: '\t=1',
        cr: '\r=1',
        negative: -5,
        plain: 'a=b',
      },
    ]);
    expect(text).toBe(
      "'=cmd,plus,minus,at,tab,cr,negative,plain\n" +
        `"'=HYPERLINK(""http://x"",""y"")",'+1+2,'-2+3,'@SUM(A1),'\t=1,"'\r=1",-5,a=b\n`,
    );
  });

  test('a large dataset streams in chunks of about 64 KiB that add up to every row in order', async () => {
    const rows = Array.from({ length: 5_000 }, (_, n) => ({ n, note: `row ${n} `.padEnd(60, '.') }));
    const { text, chunks } = await exportRows(rows);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(5_001);
    expect(lines[1]).toBe(`0,${rows[0].note}`);
    expect(lines[5_000]).toBe(`4999,${rows[4_999].note}`);
    expect(chunks.length).toBeGreaterThan(3);
    for (const size of chunks.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(64 * 1024);
    // A chunk closes on the first CSV piece that reaches 64 KiB; a piece is at most one 16 KiB stream read.
    for (const size of chunks) expect(size).toBeLessThan(64 * 1024 + 17 * 1024);
  });

  test('an unknown dataset is 404 before any CSV', async () => {
    await expect(csvOf(service.client, 'ds_nope', alice)).rejects.toMatchObject({
      httpStatus: 404,
      body: { detail: 'Dataset not found' },
    });
  });
});
