#include "domain.h"

#include <sstream>

namespace dom {

namespace {

Order order(int32_t id, const char* symbol, OrderSide side, OrderType type, double price, double volume) {
    Order o;
    o.id = id;
    o.symbol = symbol;
    o.side = side;
    o.type = type;
    o.price = price;
    o.volume = volume;
    return o;
}

Balance balance(const char* currency, double amount) {
    Balance b;
    b.currency = currency;
    b.amount = amount;
    return b;
}

}  // namespace

Account sample_account() {
    Account a;
    a.id = 1;
    a.name = "Test";
    a.state = State::good;
    a.wallet = balance("USD", 1000.0);
    a.asset = balance("EUR", 100.0);
    a.orders.clear();
    a.orders.push_back(order(1, "EURUSD", OrderSide::buy, OrderType::market, 1.23456, 1000.0));
    a.orders.push_back(order(2, "EURUSD", OrderSide::sell, OrderType::limit, 1.0, 100.0));
    a.orders.push_back(order(3, "EURUSD", OrderSide::buy, OrderType::stop, 1.5, 10.0));
    return a;
}

std::vector<Account> check_accounts() {
    std::vector<Account> v;
    v.push_back(sample_account());

    Account b;
    b.id = -7;
    b.name = "A longer account name, with \"quotes\" and UTF-8: \xc3\xa9\xe2\x82\xac";
    b.state = State::bad;
    b.wallet = balance("JPY", -12345.5);
    b.asset.reset();
    b.orders.clear();
    for (int i = 0; i < 5; ++i)
        b.orders.push_back(order(100 + i, i % 2 ? "GBPUSD" : "USDJPY", i % 2 ? OrderSide::sell : OrderSide::buy,
                                 OrderType(i % 3), 0.5 + i, 1e6 * (i + 1)));
    v.push_back(b);

    Account c;
    c.id = 0;
    c.name = "";
    c.state = State::initialized;
    c.wallet = balance("", 0.0);
    c.asset = balance("CHF", 0.25);
    c.orders.clear();
    v.push_back(c);

    v.push_back(sample_account());
    return v;
}

namespace {

template <class T>
void field(std::ostringstream& os, const char* path, const T& a, const T& b) {
    if (!(a == b)) os << path << " differs; ";
}

void diff_balance(std::ostringstream& os, const char* what, const Balance& a, const Balance& b) {
    if (a.currency != b.currency) os << what << ".currency differs ('" << a.currency << "' vs '" << b.currency << "'); ";
    if (a.amount != b.amount) os << what << ".amount differs (" << a.amount << " vs " << b.amount << "); ";
}

}  // namespace

std::string diff(const Account& a, const Account& b) {
    std::ostringstream os;
    field(os, "id", a.id, b.id);
    if (a.name != b.name) os << "name differs ('" << a.name << "' vs '" << b.name << "'); ";
    if (u8(a.state) != u8(b.state)) os << "state differs (" << int(u8(a.state)) << " vs " << int(u8(b.state)) << "); ";
    diff_balance(os, "wallet", a.wallet, b.wallet);
    if (a.asset.has_value() != b.asset.has_value())
        os << "asset presence differs; ";
    else if (a.asset)
        diff_balance(os, "asset", *a.asset, *b.asset);
    if (a.orders.size() != b.orders.size()) {
        os << "orders count differs (" << a.orders.size() << " vs " << b.orders.size() << "); ";
    } else {
        for (size_t i = 0; i < a.orders.size(); ++i) {
            const Order& x = a.orders[i];
            const Order& y = b.orders[i];
            if (x.id != y.id || x.symbol != y.symbol || u8(x.side) != u8(y.side) || u8(x.type) != u8(y.type) ||
                x.price != y.price || x.volume != y.volume)
                os << "orders[" << i << "] differs; ";
        }
    }
    return os.str();
}

std::string diff(const Graph& a, const Graph& b) {
    std::ostringstream os;
    if (a.nodes.size() != b.nodes.size()) os << "node count differs; ";
    if (a.edges.size() != b.edges.size()) os << "edge count differs; ";
    if (!os.str().empty()) return os.str();
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        const Node& x = a.nodes[i];
        const Node& y = b.nodes[i];
        if (x.id != y.id || x.name != y.name || x.value != y.value || x.out_edges != y.out_edges) {
            os << "nodes[" << i << "] differs; ";
            break;
        }
    }
    for (size_t i = 0; i < a.edges.size(); ++i) {
        const Edge& x = a.edges[i];
        const Edge& y = b.edges[i];
        if (x.source != y.source || x.target != y.target || x.weight != y.weight) {
            os << "edges[" << i << "] differs; ";
            break;
        }
    }
    return os.str();
}

namespace {

// splitmix64: tiny, fully specified, so the graph is identical everywhere
// (std:: distributions are not portable across standard libraries).
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

}  // namespace

Graph make_graph(int nodes, int edges, uint64_t seed) {
    Rng rng{seed};
    Graph g;
    g.nodes.resize(nodes);
    for (int i = 0; i < nodes; ++i) {
        Node& n = g.nodes[i];
        n.id = i;
        n.name = "node-" + std::to_string(i) + "-";
        int extra = 4 + int(rng.below(16));
        for (int k = 0; k < extra; ++k) n.name.push_back(char('a' + rng.below(26)));
        n.value = int64_t(rng.below(1000000)) - 500000;
    }
    auto add_edge = [&](int32_t s, int32_t t) {
        Edge e;
        e.source = s;
        e.target = t;
        e.weight = int32_t(1 + rng.below(100));
        g.nodes[s].out_edges.push_back(int32_t(g.edges.size()));
        g.edges.push_back(e);
    };
    // Spanning tree: every node is reachable from node 0.
    for (int i = 1; i < nodes && int(g.edges.size()) < edges; ++i) add_edge(int32_t(rng.below(uint32_t(i))), i);
    while (int(g.edges.size()) < edges) add_edge(int32_t(rng.below(nodes)), int32_t(rng.below(nodes)));
    return g;
}

}  // namespace dom
