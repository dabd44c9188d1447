// The readers' whole-vector paths (docs/cpp.md, "How reading works"):
// vectors of fixed-size elements checked once (final model), vectors of
// scalars copied and struct elements read with fewer checks or as packed
// bodies (versioned model). They must read exactly what element-by-element
// reading reads: into reused vectors of any size, from older and newer
// writers, and from damaged buffers without reading outside them.

#include "vectors_final_models.h"
#include "vectors_models.h"
#include "vectors_new_models.h"
#include "vectors_old_models.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace {

vectors::Holder sample(int n) {
    vectors::Holder h;
    for (int i = 0; i < n; ++i) {
        h.edges.emplace_back(i, 2 * i + 1, -i);
        vectors::Point3 p;
        p.flag = i % 2 == 0;
        p.x = -1000000007LL * i;
        p.y = static_cast<int16_t>(i - 3);
        p.z = 0.5 * i;
        h.points.push_back(p);
        h.ints.push_back(i * 7);
        h.switches.push_back(i % 3 == 0);
        h.reals.push_back(-1.25 * i);
        h.named.emplace_back("name-" + std::to_string(i), std::vector<int32_t>(static_cast<std::size_t>(i), i));
    }
    return h;
}

template <template <class> class Model>
std::vector<uint8_t> bytes_of(const vectors::Holder& h) {
    Model<FBE::WriteBuffer> writer;
    writer.serialize(h);
    return std::vector<uint8_t>(writer.buffer().data(), writer.buffer().data() + writer.buffer().size());
}

//! Reads the first `size` bytes, copied to a heap block of exactly that size (AddressSanitizer sees stray reads).
template <template <class> class Model, typename T>
std::size_t read(const std::vector<uint8_t>& bytes, std::size_t size, T& value, bool* verified = nullptr) {
    std::unique_ptr<uint8_t[]> copy(new uint8_t[size == 0 ? 1 : size]);
    if (size != 0)
        std::memcpy(copy.get(), bytes.data(), size);
    Model<FBE::ReadBuffer> reader;
    reader.attach(copy.get(), size);
    if (verified)
        *verified = reader.verify();
    return reader.deserialize(value);
}

template <template <class> class Model>
void reads_into_reused_objects() {
    const vectors::Holder h = sample(40);
    const std::vector<uint8_t> bytes = bytes_of<Model>(h);
    for (int before : {0, 1, 39, 40, 41, 100}) {
        SCOPED_TRACE(before);
        vectors::Holder back = sample(before);
        ASSERT_GT(read<Model>(bytes, bytes.size(), back), 0u);
        EXPECT_EQ(back.string(), h.string());
        EXPECT_EQ(bytes_of<Model>(back), bytes);
    }
}

} // namespace

TEST(Vectors, ReadIntoReusedObjectsOfEverySize) {
    reads_into_reused_objects<FBE::vectors::HolderModel>();
    reads_into_reused_objects<FBE::vectors::HolderFinalModel>();
}

// An older writer's Edge bodies are shorter: the packed path gives way and
// the missing fields take their defaults; a newer writer's are longer.
TEST(Vectors, StructElementsFromOlderAndNewerWriters) {
    vectors_old::Holder old_holder;
    vectors_new::Holder new_holder;
    for (int i = 0; i < 5; ++i) {
        old_holder.edges.emplace_back(i + 1);
        new_holder.edges.emplace_back(i, i + 1, i + 2, "note " + std::to_string(i));
    }
    FBE::vectors_old::HolderModel<> old_writer;
    old_writer.serialize(old_holder);
    FBE::vectors_new::HolderModel<> new_writer;
    new_writer.serialize(new_holder);

    FBE::vectors::HolderModel<FBE::ReadBuffer> reader;
    vectors::Holder back = sample(3);
    reader.attach(old_writer.buffer());
    ASSERT_TRUE(reader.verify()) << reader.error();
    ASSERT_GT(reader.deserialize(back), 0u) << reader.error();
    ASSERT_EQ(back.edges.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].source, i + 1);
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].target, 0);
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].weight, 0);
    }
    EXPECT_TRUE(back.points.empty() && back.ints.empty() && back.named.empty());

    reader.attach(new_writer.buffer());
    ASSERT_TRUE(reader.verify()) << reader.error();
    ASSERT_GT(reader.deserialize(back), 0u) << reader.error();
    ASSERT_EQ(back.edges.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].source, i);
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].target, i + 1);
        EXPECT_EQ(back.edges[static_cast<std::size_t>(i)].weight, i + 2);
    }
}

// Every truncation and every single-byte change of a small message, both
// models: reading stays inside the buffer, and what verify() accepts reads.
TEST(Vectors, DamagedBuffersStayInBounds) {
    const vectors::Holder h = sample(3);
    for (const bool versioned : {true, false}) {
        SCOPED_TRACE(versioned ? "versioned" : "final");
        const std::vector<uint8_t> bytes =
            versioned ? bytes_of<FBE::vectors::HolderModel>(h) : bytes_of<FBE::vectors::HolderFinalModel>(h);
        auto run = [versioned](const std::vector<uint8_t>& b, std::size_t size) {
            vectors::Holder back = sample(2);
            bool verified = false;
            const std::size_t n = versioned ? read<FBE::vectors::HolderModel>(b, size, back, &verified)
                                            : read<FBE::vectors::HolderFinalModel>(b, size, back, &verified);
            if (verified) {
                EXPECT_GT(n, 0u);
            }
            return verified;
        };
        for (std::size_t size = 0; size < bytes.size(); ++size)
            EXPECT_FALSE(run(bytes, size)) << "cut at " << size;
        for (std::size_t i = 0; i < bytes.size(); ++i)
            for (unsigned value = 0; value < 256; value += 3) {
                std::vector<uint8_t> damaged = bytes;
                damaged[i] = static_cast<uint8_t>(value);
                run(damaged, damaged.size());
            }
    }
}

// A root beyond the format's 32-bit sizes and offsets (docs/limits.md 8) is
// refused, nothing written, where its sizes were cut to 32 bits: 2^32 bools
// (512 MB as std::vector<bool>) need a vector block of 4 + 2^32 bytes.
TEST(Vectors, RootBeyond4GiBIsRefused) {
    vectors::Holder h;
    h.switches.assign(std::size_t{1} << 32, false);
    FBE::vectors::HolderModel<> writer;
    EXPECT_EQ(writer.serialize(h), 0u);
    EXPECT_EQ(writer.buffer().size(), 0u);
    EXPECT_NE(writer.error().find("32-bit (at most 4 GiB)"), std::string::npos) << writer.error();
    FBE::vectors::HolderFinalModel<> final_writer;
    EXPECT_EQ(final_writer.serialize(h), 0u);
    EXPECT_EQ(final_writer.buffer().size(), 0u);
    EXPECT_NE(final_writer.error().find("32-bit (at most 4 GiB)"), std::string::npos) << final_writer.error();
}
