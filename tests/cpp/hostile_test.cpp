// Hostile input: verify() rejects damaged buffers, and neither verify() nor
// deserialize() reads outside the buffer (buffers are copied to exactly
// their size on the heap, so AddressSanitizer sees any stray read), loops,
// or allocates more than the buffer justifies. Errors name type and field.

#include "conformance.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <random>

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

// One error policy for both models (model.h): the first error recorded
// wins, and the structs it unwinds through name themselves in front of it.
TEST(Hostile, FirstErrorWinsInBothModels) {
    const uint8_t bytes[16] = {};
    std::string versioned_error;
    FBE::Decoder versioned(bytes, sizeof(bytes), &versioned_error);
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
