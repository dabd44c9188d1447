// Serves the generated JavaScript, the runtime and $SHARED's vectors to Debian's headless Chromium
// through playwright-core's request routing (no server, no network) and prints what page.js found.
// node run.mjs GEN_DIR RUNTIME_DIR SHARED_DIR
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";

import { chromium } from "playwright-core";

const [gen, runtime, shared] = process.argv.slice(2);
const here = new URL(".", import.meta.url).pathname;
const ORIGIN = "http://fbe.test";
const roots = {
  "/gen/": gen,
  "/runtime/": join(runtime, "dist"),
  "/vectors/": join(shared, "vectors"),
};
const PAGE = `<!doctype html><script type="importmap">{"imports": {"@fbe-toolkit/fbe": "/runtime/index.js"}}</script>
<script type="module" src="/page.js"></script>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.route("**/*", async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") return route.fulfill({ contentType: "text/html", body: PAGE });
    if (path === "/page.js") return route.fulfill({ contentType: "text/javascript", body: await readFile(join(here, "page.js")) });
    const root = Object.keys(roots).find((r) => path.startsWith(r));
    if (root === undefined) return route.fulfill({ status: 404, body: "" });
    try {
      const body = await readFile(join(roots[root], decodeURIComponent(path.slice(root.length))));
      const type = path.endsWith(".js") ? "text/javascript" : path.endsWith(".json") ? "application/json" : "application/octet-stream";
      return route.fulfill({ contentType: type, body });
    } catch {
      return route.fulfill({ status: 404, body: "" });
    }
  });
  await page.goto(ORIGIN + "/");
  const result = await page.waitForFunction(() => window.result, undefined, { timeout: 60000 }).then((h) => h.jsonValue())
    .catch((e) => ({ failures: [`no result: ${e}`, ...errors] }));
  console.log(JSON.stringify({ ...result, pageErrors: errors }));
} finally {
  await browser.close();
}
