// The benchmark rows: every protocol is a "codec" class with one interface,
// and the templates below turn a codec into Google Benchmark benchmarks after
// checking that its round trip reproduces the domain object.
//
// Trade codec:
//   static constexpr bool has_verify;
//   void serialize(const dom::Account&);          // into a buffer the codec reuses
//   Bytes bytes() const;                          // the last serialized message
//   bool verify(const uint8_t*, size_t);          // only if has_verify
//   bool deserialize(const uint8_t*, size_t, dom::Account&);   // reuses the object
//
// Graph codec: the same for dom::Graph, plus
//   bool open(const uint8_t*, size_t);            // bytes -> the row's read view
//   int64_t traverse();                           // BFS sum over that view
// where the read view is the buffer itself for zero-copy formats and the
// row's own decoded object otherwise. A codec with
//   static constexpr bool opens_verified = true;
// reads in open() a buffer its verify() accepted before, without checking it
// again (FlatBuffers' GetRoot after its Verifier, our verified views): the
// traverse benchmarks call verify() once before their timed loop, and the
// verify column is its cost.
#pragma once

#include <benchmark/benchmark.h>
#include <valgrind/callgrind.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "domain.h"

namespace bench {

struct Bytes {
    const uint8_t* data = nullptr;
    size_t size = 0;
};

// Options of this run (set by main from the command line).
struct Options {
    bool check_only = false;   // --check: run the round-trip checks and exit
    long stable_n = 0;         // --stable=N: callgrind mode (trade rows with 1 and N iterations,
    long stable_graph_n = 3;   //   graph rows with 1 and --stable-graph=M iterations)
    int graph_nodes = 5000;
    int graph_edges = 50000;
};
Options& options();

// One row of a table and the outcome of its check ("ok", "FAILED: ...",
// "not available yet: ...").
struct RowStatus {
    std::string model, id, label, status;
};
std::vector<RowStatus>& statuses();
void report_status(const std::string& model, const std::string& id, const std::string& label,
                   const std::string& status);

const dom::Graph& sample_graph();
int64_t sample_graph_sum();

// Callgrind client requests around the timed loop (no-ops outside valgrind).
struct CallgrindSection {
    bool on;
    std::string label;
    CallgrindSection(bool on_, std::string l) : on(on_), label(std::move(l)) {
        if (on) CALLGRIND_ZERO_STATS;
    }
    ~CallgrindSection() {
        if (on) CALLGRIND_DUMP_STATS_AT(label.c_str());
    }
};

inline std::vector<uint8_t> copy(Bytes b) { return std::vector<uint8_t>(b.data, b.data + b.size); }

// ---------------------------------------------------------------- trade

template <class C>
std::string check_trade() {
    try {
        auto accounts = dom::check_accounts();
        C writer;
        C reader;
        dom::Account target = accounts.back();  // reused: holds the previous account each time
        for (size_t i = 0; i < accounts.size(); ++i) {
            writer.serialize(accounts[i]);
            std::vector<uint8_t> bytes = copy(writer.bytes());
            if (bytes.empty()) return "FAILED: empty message for account #" + std::to_string(i);
            if constexpr (C::has_verify) {
                if (!reader.verify(bytes.data(), bytes.size()))
                    return "FAILED: verify rejected its own message #" + std::to_string(i);
            }
            if (!reader.deserialize(bytes.data(), bytes.size(), target))
                return "FAILED: deserialize failed for account #" + std::to_string(i);
            std::string d = dom::diff(accounts[i], target);
            if (!d.empty()) return "FAILED: round trip of account #" + std::to_string(i) + ": " + d;
            dom::Account fresh;
            if (!reader.deserialize(bytes.data(), bytes.size(), fresh))
                return "FAILED: deserialize into a fresh object failed for account #" + std::to_string(i);
            d = dom::diff(accounts[i], fresh);
            if (!d.empty()) return "FAILED: round trip into a fresh object of account #" + std::to_string(i) + ": " + d;
        }
        if constexpr (C::has_verify) {
            writer.serialize(dom::sample_account());
            std::vector<uint8_t> bytes = copy(writer.bytes());
            // A truncated message must be rejected, unless only trailing
            // padding was cut and the message still reads back whole.
            for (size_t cut : {size_t(1), bytes.size() / 2}) {
                if (bytes.size() <= cut) continue;
                std::vector<uint8_t> part(bytes.begin(), bytes.end() - long(cut));
                if (!reader.verify(part.data(), part.size())) continue;
                dom::Account back;
                if (!reader.deserialize(part.data(), part.size(), back) || !dom::diff(dom::sample_account(), back).empty())
                    return "FAILED: verify accepted a message truncated by " + std::to_string(cut) + " bytes";
            }
        }
    } catch (const std::exception& e) {
        return std::string("FAILED: exception: ") + e.what();
    }
    return "ok";
}

template <class C>
void trade_serialize(benchmark::State& st, const std::string& name) {
    C c;
    const dom::Account account = dom::sample_account();
    c.serialize(account);
    {
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            c.serialize(account);
            benchmark::DoNotOptimize(c.bytes().data);
            benchmark::ClobberMemory();
        }
    }
    st.counters["bytes"] = double(c.bytes().size);
}

template <class C>
void trade_deserialize(benchmark::State& st, const std::string& name) {
    std::vector<uint8_t> bytes;
    {
        C w;
        w.serialize(dom::sample_account());
        bytes = copy(w.bytes());
    }
    C c;
    dom::Account account;
    c.deserialize(bytes.data(), bytes.size(), account);
    {
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            if (!c.deserialize(bytes.data(), bytes.size(), account)) {
                st.SkipWithError("deserialize failed");
                break;
            }
            benchmark::DoNotOptimize(account);
            benchmark::ClobberMemory();
        }
    }
    st.counters["bytes"] = double(bytes.size());
}

template <class C>
void trade_verify(benchmark::State& st, const std::string& name) {
    std::vector<uint8_t> bytes;
    {
        C w;
        w.serialize(dom::sample_account());
        bytes = copy(w.bytes());
    }
    C c;
    {
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            bool ok = c.verify(bytes.data(), bytes.size());
            benchmark::DoNotOptimize(ok);
            if (!ok) {
                st.SkipWithError("verify failed");
                break;
            }
        }
    }
    st.counters["bytes"] = double(bytes.size());
}

inline void apply_trade_options(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kNanosecond); }

// Registers the trade benchmarks of codec C as trade/<id>/<op> once its
// round trip checks out; otherwise only reports the failure.
template <class C>
void register_trade(const std::string& id, const std::string& label) {
    std::string status = check_trade<C>();
    report_status("trade", id, label, status);
    if (status != "ok" || options().check_only) return;
    std::vector<std::pair<std::string, void (*)(benchmark::State&, const std::string&)>> ops = {
        {"serialize", &trade_serialize<C>}, {"deserialize", &trade_deserialize<C>}};
    if constexpr (C::has_verify) ops.push_back({"verify", &trade_verify<C>});
    for (auto& [op, fn] : ops) {
        std::string name = "trade/" + id + "/" + op;
        if (options().stable_n > 0) {
            benchmark::RegisterBenchmark(name.c_str(), fn, name)->Iterations(1)->Unit(benchmark::kNanosecond);
            benchmark::RegisterBenchmark(name.c_str(), fn, name)->Iterations(options().stable_n)->Unit(benchmark::kNanosecond);
        } else {
            apply_trade_options(benchmark::RegisterBenchmark(name.c_str(), fn, name));
        }
    }
}

// ---------------------------------------------------------------- graph

template <class C, class = void>
struct OpensVerified : std::false_type {};
template <class C>
struct OpensVerified<C, std::void_t<decltype(C::opens_verified)>> : std::bool_constant<C::opens_verified> {};

// The verify() before open() of a codec that opens a verified buffer
// (OpensVerified), outside the timed loop; true for every other codec.
template <class C>
bool verify_before_open(C& c, const std::vector<uint8_t>& bytes) {
    if constexpr (OpensVerified<C>::value)
        return c.verify(bytes.data(), bytes.size());
    return true;
}

template <class C>
std::string check_graph() {
    try {
        const dom::Graph& g = sample_graph();
        C writer;
        writer.serialize(g);
        std::vector<uint8_t> bytes = copy(writer.bytes());
        C reader;
        if constexpr (C::has_verify) {
            if (!reader.verify(bytes.data(), bytes.size())) return "FAILED: verify rejected its own message";
        }
        dom::Graph back;
        back.nodes.resize(3);  // reused, non-empty object
        if (!reader.deserialize(bytes.data(), bytes.size(), back)) return "FAILED: deserialize failed";
        std::string d = dom::diff(g, back);
        if (!d.empty()) return "FAILED: round trip: " + d;
        if (!reader.open(bytes.data(), bytes.size())) return "FAILED: open failed";
        int64_t sum = reader.traverse();
        if (sum != sample_graph_sum())
            return "FAILED: traverse sum " + std::to_string(sum) + " != " + std::to_string(sample_graph_sum());
    } catch (const std::exception& e) {
        return std::string("FAILED: exception: ") + e.what();
    }
    return "ok";
}

template <class C>
struct GraphBench {
    static std::vector<uint8_t> message() {
        C w;
        w.serialize(sample_graph());
        return copy(w.bytes());
    }
    static void serialize(benchmark::State& st, const std::string& name) {
        C c;
        const dom::Graph& g = sample_graph();
        c.serialize(g);
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            c.serialize(g);
            benchmark::DoNotOptimize(c.bytes().data);
            benchmark::ClobberMemory();
        }
        st.counters["bytes"] = double(c.bytes().size);
    }
    static void deserialize(benchmark::State& st, const std::string& name) {
        auto bytes = message();
        C c;
        dom::Graph g;
        c.deserialize(bytes.data(), bytes.size(), g);
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            if (!c.deserialize(bytes.data(), bytes.size(), g)) {
                st.SkipWithError("deserialize failed");
                break;
            }
            benchmark::DoNotOptimize(g);
            benchmark::ClobberMemory();
        }
        st.counters["bytes"] = double(bytes.size());
    }
    static void verify(benchmark::State& st, const std::string& name) {
        auto bytes = message();
        C c;
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            bool ok = c.verify(bytes.data(), bytes.size());
            benchmark::DoNotOptimize(ok);
            if (!ok) {
                st.SkipWithError("verify failed");
                break;
            }
        }
        st.counters["bytes"] = double(bytes.size());
    }
    static void traverse(benchmark::State& st, const std::string& name) {
        auto bytes = message();
        C c;
        if (!verify_before_open(c, bytes) || !c.open(bytes.data(), bytes.size())) {
            st.SkipWithError("open failed");
            return;
        }
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            int64_t sum = c.traverse();
            benchmark::DoNotOptimize(sum);
        }
        st.counters["bytes"] = double(bytes.size());
    }
    static void deserialize_traverse(benchmark::State& st, const std::string& name) {
        auto bytes = message();
        C c;
        if (!verify_before_open(c, bytes)) {
            st.SkipWithError("verify failed");
            return;
        }
        CallgrindSection cg(options().stable_n > 0, name + "@" + std::to_string(st.max_iterations));
        for (auto _ : st) {
            if (!c.open(bytes.data(), bytes.size())) {
                st.SkipWithError("open failed");
                break;
            }
            int64_t sum = c.traverse();
            benchmark::DoNotOptimize(sum);
        }
        st.counters["bytes"] = double(bytes.size());
    }
};

template <class C>
void register_graph(const std::string& id, const std::string& label) {
    std::string status = check_graph<C>();
    report_status("graph", id, label, status);
    if (status != "ok" || options().check_only) return;
    std::vector<std::pair<std::string, void (*)(benchmark::State&, const std::string&)>> ops = {
        {"serialize", &GraphBench<C>::serialize},
        {"deserialize", &GraphBench<C>::deserialize},
        {"traverse", &GraphBench<C>::traverse},
        {"deserialize_traverse", &GraphBench<C>::deserialize_traverse}};
    if constexpr (C::has_verify) ops.push_back({"verify", &GraphBench<C>::verify});
    for (auto& [op, fn] : ops) {
        std::string name = "graph/" + id + "/" + op;
        if (options().stable_n > 0) {
            // Each graph operation is ~10^6 instructions: a few iterations suffice.
            benchmark::RegisterBenchmark(name.c_str(), fn, name)->Iterations(1)->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(name.c_str(), fn, name)->Iterations(options().stable_graph_n)->Unit(benchmark::kMicrosecond);
        } else {
            benchmark::RegisterBenchmark(name.c_str(), fn, name)->Unit(benchmark::kMicrosecond);
        }
    }
}

// Each peer's translation unit defines its registration function.
void register_ours();
void register_protobuf();
void register_capnp();
void register_flatbuffers();
void register_sbe();
void register_rapidjson();
void register_cereal();
void register_msgpack();

}  // namespace bench
