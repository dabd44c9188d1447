// npm runs this as the `prepare` script: on `npm install` inside this folder, on `npm pack` /
// `npm publish`, and when a user project installs the package from a path
// (`npm install path/to/runtime/js`). For a path install npm links this folder without
// installing its devDependencies, so the TypeScript compiler is fetched here first (the exact
// versions of package-lock.json); then src/ is compiled to dist/, which the package exports.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, "node_modules", "typescript", "bin", "tsc");
const npm = process.env.npm_execpath;
const run = (command, args) => execFileSync(command, args, { cwd: here, stdio: "inherit" });

if (!existsSync(tsc)) {
    const ci = ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
    if (npm) run(process.execPath, [npm, ...ci]);
    else run(process.platform === "win32" ? "npm.cmd" : "npm", ci);
}
run(process.execPath, [tsc, "-p", "tsconfig.json"]);
