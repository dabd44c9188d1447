// Hostile input: verify() rejects damaged buffers, and neither verify() nor
// deserialize() reads outside the buffer (buffers are copied to exactly
// their size on the heap, so AddressSanitizer sees any stray read), loops,
// or allocates more than the buffer justifies. Errors name type and field.

#include "conformance.h"

#include "proto_final_models.h"
#include "test_models.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <memory>
#include <new>
#include <random>

// Heap accounting for the decode-budget tests: every operator new of this
// binary goes through malloc, and the bytes live now and their peak are
// counted (malloc_usable_size, so operator delete needs no size).
namespace {
std::atomic<std::size_t> heap_live{0};
std::atomic<std::size_t> heap_peak{0};
} // namespace

void* operator new(std::size_t size) {
    void* p = std::malloc(size == 0 ? 1 : size);
    if (p == nullptr)
        throw std::bad_alloc();
    const std::size_t live = heap_live += malloc_usable_size(p);
    std::size_t peak = heap_peak.load();
    while (live > peak && !heap_peak.compare_exchange_weak(peak, live)) {
    }
    return p;
}
void operator delete(void* p) noexcept {
    if (p != nullptr) {
        heap_live -= malloc_usable_size(p);
        std::free(p);
    }
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace {

//! Runs a reader over the first `size` bytes, copied to a heap block of exactly that size.
ReadResult run(Reader reader, const Bytes& bytes, std::size_t size) {
    std::unique_ptr<uint8_t[]> copy(new uint8_t[size == 0 ? 1 : size]);
    if (size != 0)
        std::memcpy(copy.get(), bytes.data(), size);
    return reader(copy.get(), size);
}

ReadResult run(Reader reader, const Bytes& bytes) { return run(reader, bytes, bytes.size()); }

const VectorReaders& readers_of(const std::string& name) {
    for (const auto& r : vector_readers())
        if (name == r.name)
            return r;
    throw std::runtime_error("no vector " + name);
}

Bytes patched_u32(Bytes bytes, std::size_t offset, uint32_t value) {
    FBE::store<uint32_t>(bytes.data() + offset, value);
    return bytes;
}

} // namespace

// Every vector, both models, cut at every length: verify() rejects the
// prefix, also when its size field is patched to the new length.
TEST(Hostile, EveryTruncationIsRejected) {
    for (const auto& v : vector_readers()) {
        for (const auto& [file, reader] : {std::pair{v.versioned_file, v.versioned}, std::pair{v.final_file, v.final}}) {
            SCOPED_TRACE(file);
            const Bytes bytes = read_vector(file);
            ASSERT_TRUE(run(reader, bytes).verified);
            for (std::size_t size = 0; size < bytes.size(); ++size) {
                EXPECT_FALSE(run(reader, bytes, size).verified) << "cut at " << size;
                if (size >= 8) {
                    const ReadResult patched = run(reader, patched_u32(bytes, 0, static_cast<uint32_t>(size)), size);
                    EXPECT_FALSE(patched.verified) << "cut at " << size << " with size field patched";
                }
            }
        }
    }
}

// Every single-byte corruption of the proto vectors (every position, every
// value): whatever verify() says,
// reading stays inside the buffer; a buffer verify() accepts deserializes.
TEST(Hostile, EverySingleByteCorruptionOfTheProtoVectors) {
    std::size_t rejected = 0, accepted = 0;
    for (const auto& v : vector_readers()) {
        if (std::string(v.name).rfind("proto_", 0) != 0)
            continue;
        for (const auto& [file, reader] : {std::pair{v.versioned_file, v.versioned}, std::pair{v.final_file, v.final}}) {
            SCOPED_TRACE(file);
            const Bytes bytes = read_vector(file);
            for (std::size_t i = 0; i < bytes.size(); ++i) {
                for (unsigned candidate = 0; candidate < 256; ++candidate) {
                    const uint8_t value = static_cast<uint8_t>(candidate);
                    if (value == bytes[i])
                        continue;
                    Bytes damaged = bytes;
                    damaged[i] = value;
                    const ReadResult result = run(reader, damaged);
                    if (result.verified) {
                        ++accepted;
                        EXPECT_GT(result.deserialized, 0u) << "byte " << i << " = " << int(value);
                        EXPECT_EQ(result.read_error, "") << "byte " << i << " = " << int(value);
                    } else {
                        ++rejected;
                        EXPECT_FALSE(result.verify_error.empty());
                    }
                }
            }
        }
    }
    EXPECT_GT(rejected, 0u);
    EXPECT_GT(accepted, 0u); // e.g. changed numbers and characters are valid data
}

// A count far beyond the buffer is rejected, with no allocation for it.
TEST(Hostile, HugeCountsAreRejected) {
    const auto& account = readers_of("proto_account");
    const Bytes versioned = read_vector(account.versioned_file);
    for (const uint32_t count : {4u, 1000000u, 0xFFFFFFFFu}) {
        // Account.orders: count at 0x68 (docs/format.md 3.7).
        const ReadResult result = run(account.versioned, patched_u32(versioned, 0x68, count));
        EXPECT_FALSE(result.verified) << count;
        EXPECT_NE(result.verify_error.find("proto.Account.orders"), std::string::npos) << result.verify_error;
        EXPECT_NE(result.verify_error.find("count"), std::string::npos) << result.verify_error;
        EXPECT_EQ(result.deserialized, 0u);
    }
    const Bytes final = read_vector(account.final_file);
    for (const uint32_t count : {1000000u, 0xFFFFFFFFu}) {
        // Account.orders: count at 0x34 (docs/format.md 4.3).
        const ReadResult result = run(account.final, patched_u32(final, 0x34, count));
        EXPECT_FALSE(result.verified) << count;
        EXPECT_NE(result.verify_error.find("proto.Account.orders"), std::string::npos) << result.verify_error;
    }
    // A vector of bytes (test.StructVector.f1): the count must fit the bytes.
    const auto& vector = readers_of("test_struct_vector");
    const Bytes bytes = read_vector(vector.versioned_file);
    const std::size_t count_at = 8 + FBE::load<uint32_t>(bytes.data() + 16);
    const ReadResult result = run(vector.versioned, patched_u32(bytes, count_at, 0x7FFFFFFF));
    EXPECT_FALSE(result.verified);
    EXPECT_NE(result.verify_error.find("test.StructVector.f1"), std::string::npos) << result.verify_error;
    EXPECT_EQ(result.deserialized, 0u);
}

// Offsets pointing backwards, into their own slot or at a block another slot
// already uses are rejected: every byte is decoded at most once.
TEST(Hostile, BackwardSelfAndSharedOffsetsAreRejected) {
    const auto& account = readers_of("proto_account");
    const Bytes bytes = read_vector(account.versioned_file);
    struct Damage {
        const char* what;
        std::size_t at;
        uint32_t value;
        const char* field;
    };
    for (const Damage& d : {
             Damage{"orders[1] shares the body of orders[0]", 0x70, 0x70, "proto.Account.orders"},
             Damage{"orders[2] points back to the Account body", 0x74, 0x00 + 8, "proto.Account.orders"},
             Damage{"wallet points at its own slot", 0x19, 0x19 - 8, "proto.Account.wallet"},
             Damage{"name points into the header", 0x14, 4, "proto.Account.name"},
             Damage{"root struct offset points at itself", 0x04, 0x04, ""},
         }) {
        SCOPED_TRACE(d.what);
        const ReadResult result = run(account.versioned, patched_u32(bytes, d.at, d.value));
        EXPECT_FALSE(result.verified);
        EXPECT_NE(result.verify_error.find(d.field), std::string::npos) << result.verify_error;
        EXPECT_EQ(result.deserialized, 0u);
        EXPECT_FALSE(result.read_error.empty());
    }
}

// A string length beyond the buffer names its field.
TEST(Hostile, ErrorsNameTypeAndField) {
    const auto& account = readers_of("proto_account");
    const ReadResult result = run(account.versioned, patched_u32(read_vector(account.versioned_file), 0x26, 0xFFFFFFF0));
    EXPECT_FALSE(result.verified);
    EXPECT_NE(result.verify_error.find("proto.Account.name"), std::string::npos) << result.verify_error;
    const ReadResult nested = run(account.versioned, patched_u32(read_vector(account.versioned_file), 0x9a, 1000));
    EXPECT_FALSE(nested.verified);
    EXPECT_NE(nested.verify_error.find("proto.Account.orders: proto.Order.symbol"), std::string::npos)
        << nested.verify_error;
}

// The final model's read is best effort (FinalModel::deserialize): a root cut after `id`, its size field patched
// to the cut, reads `id`, and every field it cannot read takes its schema default whatever the value held
// (FFields::read_each, each field through detail::read_or_default).
TEST(Hostile, FinalReadGivesWhatItCannotReadItsDefault) {
    proto::Account account;
    account.id = 42;
    account.name = "name";
    account.state = proto::State::good;
    account.wallet = proto::Balance("USD", 5.0);
    account.asset = account.wallet;
    account.orders.resize(2);
    FBE::proto::AccountFinalModel<> writer;
    writer.serialize(account);
    Bytes cut(writer.buffer().data(), writer.buffer().data() + 12); // the size, the type id and `id`
    FBE::store<uint32_t>(cut.data(), 12);
    FBE::proto::AccountFinalModel<FBE::ReadBuffer> reader;
    reader.attach(cut.data(), cut.size());
    proto::Account back = account;
    back.id = 0;
    reader.deserialize(back);
    EXPECT_FALSE(reader.error().empty());
    EXPECT_EQ(back.id, 42);
    EXPECT_EQ(back.name, "");
    const proto::State state = proto::State::initialized | proto::State::bad;
    EXPECT_EQ(back.state, state);
    EXPECT_EQ(back.wallet.currency, "");
    EXPECT_EQ(back.wallet.amount, 0.0);
    EXPECT_FALSE(back.asset.has_value());
    EXPECT_TRUE(back.orders.empty());
}

// One error policy for both models (model.h): the first error recorded
// wins, and the structs it unwinds through name themselves in front of it.
TEST(Hostile, FirstErrorWinsInBothModels) {
    const uint8_t bytes[16] = {};
    std::string versioned_error;
    const FBE::Limits limits;
    FBE::Decoder versioned(bytes, sizeof(bytes), &versioned_error, limits);
    EXPECT_FALSE(versioned.fail("string", 12, "first problem"));
    EXPECT_FALSE(versioned.fail("struct", 4, "second problem"));
    EXPECT_FALSE(versioned.fail_in("test.Inner", "name"));
    EXPECT_FALSE(versioned.fail_in("test.Outer", "inner"));
    EXPECT_EQ(versioned_error, "test.Outer.inner: test.Inner.name: string at offset 12: first problem");

    std::string final_error;
    FBE::FinalDecoder final(bytes, sizeof(bytes), 12, &final_error);
    EXPECT_FALSE(final.fail("string", "first problem"));
    final.pos = 4;
    EXPECT_FALSE(final.fail("struct"));
    EXPECT_FALSE(final.fail_in("test.Inner", "name"));
    EXPECT_EQ(final_error, "test.Inner.name: string at offset 12: first problem");
}

namespace {

//! Peak heap bytes above what was live before, and the time, of one call.
struct Cost {
    std::size_t peak_heap;
    double seconds;
};
template <typename F>
Cost measured(F&& f) {
    const std::size_t before = heap_live.load();
    heap_peak = before;
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return {heap_peak.load() - before, took.count()};
}

void put_u32(Bytes& bytes, uint32_t value) {
    const std::size_t at = bytes.size();
    bytes.resize(at + 4);
    FBE::store<uint32_t>(bytes.data() + at, value);
}

//! test.StructVector whose f9 (StructSimple[]) holds `count` slots (issue
//! 13 item 1): with offset 0 in every slot, or (`bodies`) each pointing to
//! an 8-byte StructSimple body of an older writer (size 8, type id 110),
//! which every field of StructSimple takes as its default.
Bytes struct_vector_f9(uint32_t count, bool bodies) {
    Bytes root;
    put_u32(root, 48);  // StructVector body: size 48, type id 130
    put_u32(root, 130);
    for (int field = 0; field < 10; ++field)
        put_u32(root, field == 8 ? 48 : 0); // f9 -> the block right after the body
    put_u32(root, count);
    const std::size_t first_body = 8 + root.size() + 4 * std::size_t(count); // absolute
    for (uint32_t i = 0; i < count; ++i)
        put_u32(root, bodies ? uint32_t(first_body + 8 * std::size_t(i) - 8) : 0);
    for (uint32_t i = 0; bodies && i < count; ++i) {
        put_u32(root, 8);
        put_u32(root, 110);
    }
    Bytes buffer;
    put_u32(buffer, uint32_t(8 + root.size()));
    put_u32(buffer, 8);
    buffer.insert(buffer.end(), root.begin(), root.end());
    return buffer;
}

//! verify() and deserialize() of test.StructVector over `bytes`, each measured.
struct Hostile {
    ReadResult result;
    Cost verify_cost;
    Cost read_cost;
};
Hostile read_struct_vector(const Bytes& bytes, const FBE::Limits& limits = FBE::Limits()) {
    Hostile h;
    FBE::test::StructVectorModel<FBE::ReadBuffer> reader;
    reader.attach(bytes);
    reader.limits(limits);
    h.verify_cost = measured([&] { h.result.verified = reader.verify(); });
    h.result.verify_error = reader.error();
    h.read_cost = measured([&] {
        test::StructVector value;
        h.result.deserialized = reader.deserialize(value);
    });
    h.result.read_error = reader.error();
    return h;
}

// What one decode may take, C++ (docs/limits.md 9): the budget is 8 bytes
// per input byte in final-model sizes; a C++ value is larger than its final
// minimum size by a constant factor (a StructSimple of 8 bytes' budget share
// is a few hundred bytes of C++ object), and a vector may reserve up to
// kReserveFactor x the buffer.
constexpr std::size_t kPeakHeapPerInputByte = 64;
constexpr std::size_t kPeakHeapSlack = 1 << 20;
// Time: linear in the input. Ten times the input may take at most this many
// times as long (quadratic work would take about 100 times; the margin is
// for a loaded machine and the sanitizer build), and no decode hangs.
constexpr double kTimeRatioForTenTimesTheInput = 40;
constexpr double kSecondsAtMost = 30;

} // namespace

// Issue 13 item 1: N slots of offset 0 were N default structs for free
// (4 MB in, 567 MB out); every reader now rejects offset 0 (docs/limits.md 2).
TEST(Hostile, StructSlotsOfOffsetZeroAreRejected) {
    for (const uint32_t count : {1u, 1000u, 100000u}) {
        SCOPED_TRACE(count);
        const Bytes bytes = struct_vector_f9(count, false);
        const Hostile h = read_struct_vector(bytes);
        EXPECT_FALSE(h.result.verified);
        EXPECT_NE(h.result.verify_error.find("test.StructVector.f9: struct at offset"), std::string::npos)
            << h.result.verify_error;
        EXPECT_NE(h.result.verify_error.find("offset is 0"), std::string::npos) << h.result.verify_error;
        EXPECT_EQ(h.result.deserialized, 0u);
        EXPECT_EQ(h.result.read_error, h.result.verify_error);
        EXPECT_LE(h.read_cost.peak_heap, kPeakHeapPerInputByte * bytes.size() + kPeakHeapSlack);
        EXPECT_LE(h.verify_cost.peak_heap, kPeakHeapSlack);
        EXPECT_LT(h.read_cost.seconds, 1.0); // it fails at the first slot
    }
}

// Issue 13 item 1: N older writers' 8-byte bodies, each a StructSimple of
// defaults (3.96 MB in, 285 MB out, and verify() passed). Charged against
// the decode budget: refused by verify() and deserialize() alike, with peak
// memory and time proportional to the input.
TEST(Hostile, DefaultedStructsAreChargedAgainstTheBudget) {
    std::vector<double> seconds;
    for (const uint32_t count : {10000u, 100000u}) {
        SCOPED_TRACE(count);
        const Bytes bytes = struct_vector_f9(count, true);
        const Hostile h = read_struct_vector(bytes);
        EXPECT_FALSE(h.result.verified);
        EXPECT_NE(h.result.verify_error.find("decode budget exceeded"), std::string::npos) << h.result.verify_error;
        // the element whose charge goes beyond the budget (docs/limits.md 3, the exact count): the struct
        // as it is entered, or the defaults of its older body
        EXPECT_EQ(h.result.verify_error.rfind("test.StructVector.f9: ", 0), 0u) << h.result.verify_error;
        EXPECT_EQ(h.result.deserialized, 0u);
        EXPECT_EQ(h.result.read_error, h.result.verify_error);
        EXPECT_LE(h.read_cost.peak_heap, kPeakHeapPerInputByte * bytes.size() + kPeakHeapSlack)
            << bytes.size() << " bytes in";
        EXPECT_LE(h.verify_cost.peak_heap, kPeakHeapSlack);
        EXPECT_LT(h.read_cost.seconds, kSecondsAtMost);
        seconds.push_back(h.read_cost.seconds + h.verify_cost.seconds);
    }
    EXPECT_LE(seconds[1], kTimeRatioForTenTimesTheInput * seconds[0] + 0.005)
        << seconds[0] << " s for 10,000 slots, " << seconds[1] << " s for 100,000";
    // A few are fine: 10 of them cost far less than the budget's slack.
    const Hostile few = read_struct_vector(struct_vector_f9(10, true));
    EXPECT_TRUE(few.result.verified) << few.result.verify_error;
    EXPECT_GT(few.result.deserialized, 0u) << few.result.read_error;
    // And the budget is the reader's option: a larger factor reads 10,000.
    FBE::Limits generous;
    generous.budget_factor = 1000;
    const Hostile allowed = read_struct_vector(struct_vector_f9(10000, true), generous);
    EXPECT_TRUE(allowed.result.verified) << allowed.result.verify_error;
    EXPECT_GT(allowed.result.deserialized, 0u) << allowed.result.read_error;
}

// max_depth is the reader's option too.
TEST(Hostile, MaxDepthIsTheReadersOption) {
    const auto& account = readers_of("proto_account");
    const Bytes bytes = read_vector(account.versioned_file);
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(bytes);
    ASSERT_TRUE(reader.verify()) << reader.error();
    FBE::Limits shallow;
    shallow.max_depth = 1; // Account is level 1, its wallet level 2
    reader.limits(shallow);
    EXPECT_FALSE(reader.verify());
    EXPECT_NE(reader.error().find("proto.Account.wallet: struct at offset"), std::string::npos) << reader.error();
    EXPECT_NE(reader.error().find("nesting deeper than 1"), std::string::npos) << reader.error();
    proto::Account value;
    EXPECT_EQ(reader.deserialize(value), 0u);

    const Bytes final_bytes = read_vector(account.final_file);
    FBE::proto::AccountFinalModel<FBE::ReadBuffer> final_reader;
    final_reader.attach(final_bytes);
    ASSERT_TRUE(final_reader.verify()) << final_reader.error();
    final_reader.limits(shallow);
    EXPECT_FALSE(final_reader.verify());
    EXPECT_NE(final_reader.error().find("proto.Account.wallet: struct at offset"), std::string::npos)
        << final_reader.error();
    EXPECT_NE(final_reader.error().find("nesting deeper than 1"), std::string::npos) << final_reader.error();
    final_reader.deserialize(value);
    EXPECT_NE(final_reader.error().find("nesting deeper than 1"), std::string::npos) << final_reader.error();
}

// docs/limits.md 4: the versioned verify() is true exactly when
// deserialize() succeeds, over random mutations of every vector, read as
// its own type and as another.
TEST(Hostile, VerifyIsDeserializeWithoutTheValue) {
    std::mt19937_64 random(20261123);
    const auto& readers = vector_readers();
    std::size_t accepted = 0, rejected = 0;
    for (const auto& v : readers) {
        const Bytes original = read_vector(v.versioned_file);
        for (int round = 0; round < 500; ++round) {
            Bytes bytes = original;
            for (int m = 1 + static_cast<int>(random() % 3); m > 0 && !bytes.empty(); --m) {
                const std::size_t at = random() % bytes.size();
                switch (random() % 3) {
                case 0: bytes[at] = static_cast<uint8_t>(random()); break;
                case 1:
                    if (at + 4 <= bytes.size())
                        FBE::store<uint32_t>(bytes.data() + at, static_cast<uint32_t>(random() % 4 == 0 ? 0 : random() % 256));
                    break;
                default: bytes.resize(at + (random() % 2) * (bytes.size() - at) / 2); break;
                }
            }
            for (Reader r : {v.versioned, readers[random() % readers.size()].versioned}) {
                const ReadResult result = run(r, bytes);
                EXPECT_EQ(result.verified, result.deserialized > 0)
                    << v.versioned_file << " round " << round << ": verify: " << result.verify_error
                    << "; deserialize: " << result.read_error;
                if (!result.verified) {
                    EXPECT_EQ(result.read_error, result.verify_error);
                }
                (result.verified ? accepted : rejected) += 1;
            }
        }
    }
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(rejected, 0u);
}

// Random mutations of every vector (a deterministic fuzz run; the readers
// are also the libFuzzer target fuzz/cpp/fuzz_models.cpp, `make fuzz`): bit
// flips, random bytes, interesting u32 values (sizes,
// offsets, counts), truncation, extension and copied slices. Every reader
// stays inside the buffer; a buffer verify() accepts deserializes cleanly.
TEST(Hostile, RandomMutationsOfEveryVector) {
    std::mt19937_64 random(20261122);
    const auto& readers = vector_readers();
    const uint32_t interesting[] = {0, 1, 4, 7, 8, 16, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFFFFFF, 0x80000000u,
                                    0xFFFFFFF8u, 0xFFFFFFFFu};
    std::size_t accepted = 0;
    const int rounds = 1000;
    for (const auto& v : readers) {
        for (const auto& [file, reader] : {std::pair{v.versioned_file, v.versioned}, std::pair{v.final_file, v.final}}) {
            const Bytes original = read_vector(file);
            for (int round = 0; round < rounds; ++round) {
                Bytes bytes = original;
                const int mutations = 1 + static_cast<int>(random() % 4);
                for (int m = 0; m < mutations && !bytes.empty(); ++m) {
                    const std::size_t at = random() % bytes.size();
                    switch (random() % 6) {
                    case 0: bytes[at] ^= static_cast<uint8_t>(1u << (random() % 8)); break;
                    case 1: bytes[at] = static_cast<uint8_t>(random()); break;
                    case 2:
                        if (at + 4 <= bytes.size())
                            FBE::store<uint32_t>(bytes.data() + at, interesting[random() % std::size(interesting)]);
                        break;
                    case 3: bytes.resize(at); break;
                    case 4: bytes.resize(bytes.size() + random() % 64, static_cast<uint8_t>(random())); break;
                    default: {
                        const std::size_t from = random() % bytes.size();
                        const std::size_t length = std::min(bytes.size() - std::max(from, at), std::size_t(random() % 32));
                        std::memmove(bytes.data() + at, bytes.data() + from, length);
                    }
                    }
                }
                // The case's own reader and one of another type.
                for (Reader r : {reader, (random() % 2 ? readers[random() % readers.size()].versioned
                                                       : readers[random() % readers.size()].final)}) {
                    const ReadResult result = run(r, bytes);
                    if (result.verified) {
                        ++accepted;
                        EXPECT_GT(result.deserialized, 0u) << file << " round " << round;
                        EXPECT_EQ(result.read_error, "") << file << " round " << round;
                    }
                }
            }
        }
    }
    EXPECT_GT(accepted, 0u);
}
