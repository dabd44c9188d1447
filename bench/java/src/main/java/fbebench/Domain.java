package fbebench;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import com.chronoxor.proto.State;

import java.util.List;
import java.util.Objects;

/**
 * The domain object every row converts from and to (docs/benchmarks.md): proto.Account as
 * {@code fbec --java} generates it from schemas/trade.fbe, the sample account, the accounts each
 * row is checked with, and the work every row's reader is followed by (touch: every field read).
 */
public final class Domain {
    private Domain() {}

    /** The sample: id 1 "Test", state good, wallet USD 1000, asset EUR 100, three EURUSD orders. */
    public static Account sample() {
        Account a = new Account();
        a.id = 1;
        a.name = "Test";
        a.state = State.good;
        a.wallet = balance("USD", 1000);
        a.asset = balance("EUR", 100);
        a.orders.add(order(1, "EURUSD", OrderSide.buy, OrderType.market, 1.23456, 1000));
        a.orders.add(order(2, "EURUSD", OrderSide.sell, OrderType.limit, 1.0, 100));
        a.orders.add(order(3, "EURUSD", OrderSide.buy, OrderType.stop, 1.5, 10));
        return a;
    }

    /** The sample's non-empty strings: what a read into a reused object must at least make. */
    public static final int SAMPLE_STRINGS = 6;

    static Balance balance(String currency, double amount) {
        Balance b = new Balance();
        b.currency = currency;
        b.amount = amount;
        return b;
    }

    static Order order(int id, String symbol, OrderSide side, OrderType type, double price, double volume) {
        Order o = new Order();
        o.id = id;
        o.symbol = symbol;
        o.side = side;
        o.type = type;
        o.price = price;
        o.volume = volume;
        return o;
    }

    /** The accounts every row round-trips before it is timed: the sample, one without asset and
     *  with five orders, one with empty strings and no orders. */
    public static List<Account> checkAccounts() {
        Account noAsset = sample();
        noAsset.id = 2;
        noAsset.asset = null;
        noAsset.state = State.bad;
        for (int i = 4; i <= 5; i++) {
            noAsset.orders.add(order(i, "GBPUSD", OrderSide.sell, OrderType.limit, 1.25 * i, -2));
        }
        Account empty = new Account();
        empty.id = -7;
        return List.of(sample(), noAsset, empty);
    }

    /** "" when a and b hold the same values (every field), else the first field that differs. */
    public static String difference(Account a, Account b) {
        if (a.id != b.id || !a.name.equals(b.name) || !a.state.equals(b.state)) {
            return "id/name/state: " + a.id + " " + a.name + " " + a.state + " vs " + b.id + " " + b.name + " " + b.state;
        }
        if (!sameBalance(a.wallet, b.wallet)) {
            return "wallet: " + a.wallet + " vs " + b.wallet;
        }
        if ((a.asset == null) != (b.asset == null) || a.asset != null && !sameBalance(a.asset, b.asset)) {
            return "asset: " + a.asset + " vs " + b.asset;
        }
        if (a.orders.size() != b.orders.size()) {
            return "orders: " + a.orders + " vs " + b.orders;
        }
        for (int i = 0; i < a.orders.size(); i++) {
            Order x = a.orders.get(i);
            Order y = b.orders.get(i);
            if (x.id != y.id || !x.symbol.equals(y.symbol) || !x.side.equals(y.side) || !x.type.equals(y.type)
                    || Double.compare(x.price, y.price) != 0 || Double.compare(x.volume, y.volume) != 0) {
                return "orders[" + i + "]: " + x + " vs " + y;
            }
        }
        return "";
    }

    static boolean sameBalance(Balance a, Balance b) {
        return Objects.equals(a.currency, b.currency) && Double.compare(a.amount, b.amount) == 0;
    }

    /** Reads every field of a (what a consumer of the message does; the same work for every row). */
    public static int touch(Account a) {
        int n = a.id + a.name.length() + a.state.value() + a.wallet.currency.length() + (int) a.wallet.amount;
        if (a.asset != null) {
            n += a.asset.currency.length() + (int) a.asset.amount;
        }
        for (int i = 0, size = a.orders.size(); i < size; i++) {
            Order o = a.orders.get(i);
            n += o.id + o.symbol.length() + o.side.value() + o.type.value() + (int) o.price + (int) o.volume;
        }
        return n;
    }

    /** The reused account's orders resized to n, reusing the Order objects it holds. */
    static List<Order> orders(Account a, int n) {
        List<Order> orders = a.orders;
        int old = orders.size();
        if (old > n) {
            orders.subList(n, old).clear();
        }
        for (int i = old; i < n; i++) {
            orders.add(new Order());
        }
        return orders;
    }

    /** The reused account's asset, made when it has none. */
    static Balance asset(Account a) {
        if (a.asset == null) {
            a.asset = new Balance();
        }
        return a.asset;
    }
}
