package app;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import shop.Cart;
import shop.Color;
import shop.Line;
import shop.Order;
import shop.Perm;

/**
 * A user's program on the Java runtime and the code fbec --java generated into src/main/java.
 * {@code write OUT} writes the sample shop.Order (versioned model) to OUT; {@code roundtrip IN OUT}
 * reads a shop.Order from IN and writes it back to OUT.
 */
public final class Main {
    private Main() {
    }

    static Order sample() {
        Cart cart = new Cart();
        cart.id = UUID.fromString("123e4567-e89b-12d3-a456-426655440000");
        cart.color = Color.blue;
        cart.perm = Perm.read.or(Perm.write);
        cart.note = -7;
        cart.lines.addAll(List.of(line("A-1", 2), line("Ünï", -3)));
        cart.prices.put("A-1", new BigDecimal("19.99"));
        cart.prices.put("B-2", new BigDecimal("-0.000001"));
        cart.prices.put("C", new BigDecimal("79228162514264337593543950335"));
        cart.at = 1_700_000_000_123_456_789L;
        Order order = new Order();
        order.cart = cart;
        return order;
    }

    static Line line(String sku, int qty) {
        Line line = new Line();
        line.sku = sku;
        line.qty = qty;
        return line;
    }

    public static void main(String[] args) throws Exception {
        Order order = args[0].equals("roundtrip") ? Order.fromFbe(Files.readAllBytes(Path.of(args[1]))) : sample();
        Files.write(Path.of(args[args.length - 1]), order.toFbe());
    }
}
