package io.github.fbetoolkit.kafka;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A single-node Kafka broker in KRaft mode (broker and controller in one process) on 127.0.0.1,
 * started from the jars of tests/kafka/broker (the folder in the system property
 * {@code fbe.kafka.broker.jars}) in a JVM of its own, with its data in a temporary folder; stopped
 * and removed by {@link #close()}.
 */
final class KafkaBroker implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Process process;
    private final String bootstrap;
    private final Duration startTime;

    private KafkaBroker(Path dir, Process process, String bootstrap, Duration startTime) {
        this.dir = dir;
        this.process = process;
        this.bootstrap = bootstrap;
        this.startTime = startTime;
    }

    String bootstrapServers() {
        return bootstrap;
    }

    /** From the start of the storage format to the first answer of the cluster to an admin client. */
    Duration startTime() {
        return startTime;
    }

    static KafkaBroker start() throws Exception {
        String jars = System.getProperty("fbe.kafka.broker.jars", "");
        if (jars.isEmpty() || !Files.isDirectory(Path.of(jars))) {
            throw new IllegalStateException("no broker jars in '" + jars + "' (make test-kafka copies them into "
                + "build/kafka/broker and passes -Dfbe.kafka.broker.jars)");
        }
        long t0 = System.nanoTime();
        Path dir = Files.createTempDirectory("fbe-kafka-");
        int port = freePort();
        int controller = freePort();
        String bootstrap = "127.0.0.1:" + port;
        Path props = dir.resolve("server.properties");
        Files.writeString(props, String.join("\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.voters=1@127.0.0.1:" + controller,
            "listeners=PLAINTEXT://" + bootstrap + ",CONTROLLER://127.0.0.1:" + controller,
            "advertised.listeners=PLAINTEXT://" + bootstrap,
            "controller.listener.names=CONTROLLER",
            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            "inter.broker.listener.name=PLAINTEXT",
            "log.dirs=" + dir.resolve("data"),
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "") , StandardCharsets.UTF_8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = Path.of(jars).toAbsolutePath() + "/*";
        Path log = dir.resolve("broker.log");
        Process format = new ProcessBuilder(java, "-Xshare:auto", "-cp", cp, "kafka.tools.StorageTool", "format",
            "-t", "q1Sh-9_ISia_zwGINzRvyQ", "-c", props.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("format.log").toFile()).start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("kafka storage format failed:\n"
                + Files.readString(dir.resolve("format.log")));
        }
        Process broker = new ProcessBuilder(java, "-Xmx512m", "-cp", cp, "kafka.Kafka", props.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000))) {
            while (true) {
                if (!broker.isAlive()) {
                    throw new IllegalStateException("the broker exited with status " + broker.exitValue() + ":\n"
                        + tail(log));
                }
                try {
                    admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                    break;
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        broker.destroyForcibly();
                        throw new IllegalStateException("the broker did not answer within " + START_TIMEOUT + ":\n"
                            + tail(log), e);
                    }
                    Thread.sleep(250);
                }
            }
        }
        return new KafkaBroker(dir, broker, bootstrap, Duration.ofNanos(System.nanoTime() - t0));
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
