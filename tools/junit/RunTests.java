// The JUnit Platform Launcher over folders of compiled test classes (tools/junit/junit.py runs it):
// every JUnit 5 test found there runs, each failure is printed with its stack trace, and the run
// closes with the line tools/run_suites.py adds up, `NAME: N passed, N failed, N skipped`. Exits 1
// when a test or a test container failed, or when no test ran.
//
//     java -cp <junit, RunTests, the tests and what they need> RunTests NAME CLASSES_FOLDER...

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

public final class RunTests {
    private RunTests() {}

    /** One line per finished test (and failed container), named with its parent: `KeysTest > equality()`. */
    static final class Progress implements TestExecutionListener {
        private TestPlan plan;

        @Override
        public void testPlanExecutionStarted(TestPlan testPlan) {
            plan = testPlan;
        }

        String name(TestIdentifier test) {
            return plan.getParent(test).map(p -> p.getDisplayName() + " > ").orElse("") + test.getDisplayName();
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            System.out.println("SKIPPED " + name(test) + ": " + reason);
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                System.out.println(result.getStatus() + " " + name(test));
            }
        }
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: RunTests NAME CLASSES_FOLDER...");
            System.exit(2);
        }
        Set<Path> roots = Arrays.stream(args, 1, args.length).map(Path::of).collect(Collectors.toSet());
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathRoots(roots))
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, listener, new Progress());
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 40);
        long failed = summary.getTestsFailedCount() + summary.getContainersFailedCount();
        long skipped = summary.getTestsSkippedCount() + summary.getTestsAbortedCount()
                + summary.getContainersSkippedCount() + summary.getContainersAbortedCount();
        out.println(args[0] + ": " + summary.getTestsSucceededCount() + " passed, " + failed + " failed, "
                + skipped + " skipped");
        System.exit(failed == 0 && summary.getTestsSucceededCount() > 0 ? 0 : 1);
    }
}
