// A node:test reporter of one line, `kafka-js: N passed, N failed, N skipped`, the summary
// tools/run_suites.py adds up (make kafka-js runs it beside the spec reporter). A test file that
// fails to load counts as a failed test, as node reports it.
export default async function* summary(source) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for await (const event of source) {
        if (event.type !== "test:pass" && event.type !== "test:fail") continue;
        if (event.data.details?.type === "suite") continue;
        if (event.data.skip !== undefined || event.data.todo !== undefined) skipped++;
        else if (event.type === "test:pass") passed++;
        else failed++;
    }
    yield `kafka-js: ${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}
