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

// fail: stop the install with what to do instead of npm's bare "command failed"
const fail = (what, error) => {
    console.error(`@fbe-toolkit/fbe: ${what} failed in ${here} (${error.message.split("\n")[0]}).
Build it there by hand (npm ci && npm run build), or install the tarball of \`npm pack\`,
which holds dist/ and needs no build (docs/javascript.md, "Using it from your own project").`);
    process.exit(1);
};

if (!existsSync(tsc)) {
    const ci = ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
    try {
        if (npm) run(process.execPath, [npm, ...ci]);
        else run(process.platform === "win32" ? "npm.cmd" : "npm", ci);
    } catch (error) {
        fail("installing the TypeScript compiler (npm ci)", error);
    }
}
try {
    run(process.execPath, [tsc, "-p", "tsconfig.json"]);
} catch (error) {
    fail("building dist/ (tsc -p tsconfig.json)", error);
}
