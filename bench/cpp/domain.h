// Domain model of the benchmarks: the plain C++ structs every row reads from
// and writes into.
//
// When our generated code is available (FBE_BENCH_OURS=1, decided by CMake),
// the domain types ARE the types fbec generates from schemas/trade.fbe and
// schemas/graph.fbe, and every peer converts from/to them. Until then a
// hand-written struct of the same shape (std::string, std::vector,
// std::optional, enum class) stands in, so the peers can be measured alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#if FBE_BENCH_OURS
#include "proto.h"
#include "graph.h"
namespace dom {
namespace trade = ::proto;
namespace graph = ::graph;
}  // namespace dom
#else
namespace dom::trade {

enum class OrderSide : uint8_t { buy, sell };
enum class OrderType : uint8_t { market, limit, stop };
enum class State : uint8_t {
    unknown = 0x00,
    invalid = 0x01,
    initialized = 0x02,
    calculated = 0x04,
    broken = 0x08,
    good = initialized | calculated,
    bad = unknown | invalid | broken,
};

struct Order {
    int32_t id = 0;
    std::string symbol;
    OrderSide side = OrderSide::buy;
    OrderType type = OrderType::market;
    double price = 0.0;
    double volume = 0.0;
};

struct Balance {
    std::string currency;
    double amount = 0.0;
};

struct Account {
    int32_t id = 0;
    std::string name;
    State state = State(0x0B);
    Balance wallet;
    std::optional<Balance> asset;
    std::vector<Order> orders;
};

}  // namespace dom::trade

namespace dom::graph {

struct Node {
    int32_t id = 0;
    std::string name;
    int64_t value = 0;
    std::vector<int32_t> out_edges;
};

struct Edge {
    int32_t source = 0;
    int32_t target = 0;
    int32_t weight = 0;
};

struct Graph {
    std::vector<Node> nodes;
    std::vector<Edge> edges;
};

}  // namespace dom::graph
#endif

namespace dom {

using Account = trade::Account;
using Balance = trade::Balance;
using Order = trade::Order;
using OrderSide = trade::OrderSide;
using OrderType = trade::OrderType;
using State = trade::State;
using Graph = graph::Graph;
using Node = graph::Node;
using Edge = graph::Edge;

inline uint8_t u8(OrderSide v) { return static_cast<uint8_t>(v); }
inline uint8_t u8(OrderType v) { return static_cast<uint8_t>(v); }
inline uint8_t u8(State v) { return static_cast<uint8_t>(v); }
inline OrderSide to_side(uint32_t v) { return static_cast<OrderSide>(v); }
inline OrderType to_type(uint32_t v) { return static_cast<OrderType>(v); }
inline State to_state(uint32_t v) { return static_cast<State>(v); }

// The account of the original's comparison tables.
Account sample_account();
// Further accounts used only by the round-trip checks (no asset, more or no
// orders), so that reusing a non-empty object is checked too.
std::vector<Account> check_accounts();

// Deep comparison of every field (the generated operator== compares [key]
// fields only). Returns an empty string when equal, else what differs.
std::string diff(const Account& a, const Account& b);
std::string diff(const Graph& a, const Graph& b);

// Deterministic graph of `nodes` named nodes and `edges` edges (a random
// spanning tree from node 0 plus random extra edges), same on every machine.
Graph make_graph(int nodes, int edges, uint64_t seed);

// Breadth-first walk from node 0 summing Node.value of every node reached.
// Generic over how a row exposes its data, so zero-copy rows walk their
// buffers directly.
struct BfsScratch {
    std::vector<uint8_t> seen;
    std::vector<int32_t> queue;
};

template <class ValueOf, class ForEachTarget>
int64_t bfs_sum(size_t n, BfsScratch& s, ValueOf&& value_of, ForEachTarget&& for_each_target) {
    if (n == 0) return 0;
    s.seen.assign(n, 0);
    s.queue.clear();
    s.queue.reserve(n);
    s.queue.push_back(0);
    s.seen[0] = 1;
    int64_t sum = 0;
    for (size_t head = 0; head < s.queue.size(); ++head) {
        int32_t v = s.queue[head];
        sum += value_of(v);
        for_each_target(v, [&](int32_t t) {
            if (t >= 0 && size_t(t) < n && !s.seen[t]) {
                s.seen[t] = 1;
                s.queue.push_back(t);
            }
        });
    }
    return sum;
}

inline int64_t bfs_domain(const Graph& g, BfsScratch& s) {
    return bfs_sum(
        g.nodes.size(), s, [&](int32_t v) { return g.nodes[v].value; },
        [&](int32_t v, auto&& visit) {
            for (int32_t e : g.nodes[v].out_edges)
                if (e >= 0 && size_t(e) < g.edges.size()) visit(g.edges[e].target);
        });
}

}  // namespace dom
