// Runs the Kotlin compiler once per argument file given (kotlinc's own @file syntax) in one JVM, so
// the compiler's start-up and warm-up are paid once for several compilations (tools/kotlinc/kotlinc.py).
// Exits 1 when any compilation fails, after trying every one.

import org.jetbrains.kotlin.cli.common.ExitCode;
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler;

public final class KotlincGroups {
    private KotlincGroups() {}

    public static void main(String[] args) {
        // keep the compiler's application environment from one compilation to the next
        System.setProperty("kotlin.environment.keepalive", "true");
        int failed = 0;
        for (String file : args) {
            long start = System.nanoTime();
            ExitCode code = new K2JVMCompiler().exec(System.err, "@" + file);
            System.out.printf("kotlinc %s: %s in %.1f s%n", file, code, (System.nanoTime() - start) / 1e9);
            if (code != ExitCode.OK) {
                failed++;
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
