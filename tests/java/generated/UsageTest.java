// proto.Account of schemas/trade.fbe as a Java user writes it (generated with
// --package-prefix=trade, beside ../shared's com.chronoxor.proto): public fields with the schema's
// defaults, flags and enum value classes, a nullable optional, a java.util List, equality over the
// [key] field, both models, reading into a reused value, and a DecodeException naming type, field
// path and offset. Run by tests/java/junit_java.py.

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.fbetoolkit.fbe.DecodeException;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import trade.com.chronoxor.proto.Account;
import trade.com.chronoxor.proto.Balance;
import trade.com.chronoxor.proto.Order;
import trade.com.chronoxor.proto.OrderSide;
import trade.com.chronoxor.proto.State;

class UsageTest {
    static Account account() {
        Account a = new Account();
        a.id = 1;
        a.name = "Test";
        a.wallet.currency = "USD";
        a.wallet.amount = 1000;
        a.asset = new Balance();
        Order o = new Order();
        o.id = 7;
        o.symbol = "EURUSD";
        o.side = OrderSide.sell;
        a.orders.add(o);
        return a;
    }

    @Test
    void defaults() throws Exception {
        Account a = new Account();
        assertTrue(a.state.equals(State.initialized.or(State.bad)) && a.state.value() == 11, "defaults: " + a.state);
        assertTrue(a.asset == null && a.orders.isEmpty() && a.name.isEmpty(), "empty defaults");
    }

    @Test
    void bothModelsRoundTrip() throws Exception {
        Account a = account();
        byte[] data = a.toFbe();
        Account b = Account.fromFbe(data);
        assertTrue(b.orders.get(0).side == OrderSide.sell && b.orders.get(0).symbol.equals("EURUSD"), "round trip");
        assertTrue(b.equals(a) && b.hashCode() == a.hashCode(), "equal by the [key] id");
        assertTrue(OrderSide.of((byte) 9).toString().equals("<unknown>") && OrderSide.of((byte) 9).value() == 9,
                   "undeclared enum values are kept");
        assertEquals(1000.0, Account.fromFinal(a.toFinal()).wallet.amount, "final round trip");
        Account.verifyFbe(data);
        Account.verifyFinal(a.toFinal());
    }

    @Test
    void readingIntoAReusedValueKeepsItsObjects() throws Exception {
        // while the shape does not grow
        Account a = account();
        byte[] data = a.toFbe();
        Account reused = Account.fromFbe(data);
        Order kept = reused.orders.get(0);
        Balance asset = reused.asset;
        List<Order> orders = reused.orders;
        a.orders.add(new Order());
        reused.readFbe(a.toFbe());
        assertTrue(reused.orders == orders && reused.orders.get(0) == kept && reused.asset == asset
                   && reused.orders.size() == 2, "reused objects kept, a second order added");
        a.orders.remove(1);
        a.asset = null;
        reused.readFinal(a.toFinal());
        assertSame(orders, reused.orders);
        assertSame(kept, reused.orders.get(0));
        assertTrue(reused.orders.size() == 1 && reused.asset == null, "shrunk: " + reused);
        assertEquals(a.toString(), reused.toString());
        assertThrows(DecodeException.class, () -> reused.readFbe(Arrays.copyOf(data, data.length - 1)), "a cut root");
        assertEquals(new Account().toString(), reused.toString(), "reset after an error");
    }

    @Test
    void aCorruptLengthIsRefusedWithTheFieldPath() {
        byte[] data = account().toFbe();
        data[data.length - 10] = 99;             // the order's symbol length: beyond the root
        String at = "string of 99 bytes beyond the end of the buffer (proto.Account.orders[0].symbol, offset ";
        DecodeException verify = assertThrows(DecodeException.class, () -> Account.verifyFbe(data));
        assertTrue(verify.getMessage().startsWith(at), verify.getMessage());
        DecodeException read = assertThrows(DecodeException.class, () -> Account.fromFbe(data));
        assertTrue(read.getMessage().startsWith(at), read.getMessage());
    }
}
