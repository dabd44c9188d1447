package app;

import java.nio.file.Files;
import java.nio.file.Path;

import shop.Order;

/** Reads a shop.Order (versioned model) from the file named first and writes it back to the second. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Order order = Order.fromFbe(Files.readAllBytes(Path.of(args[0])));
        Files.write(Path.of(args[1]), order.toFbe());
    }
}
