// Checks shared by the generated cases (gen_cases.py: cross-version reads,
// protocol frames) and the hostile-input tests: golden vectors of
// ../shared/vectors, read at run time. The vectors themselves (bytes, text,
// JSON, values) are checked by conformance/runner.py through the C++ testee.

#pragma once

#include <fbe/fbe.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using Bytes = std::vector<uint8_t>;

//! The folder of the golden vectors: $SHARED/vectors, else the one CMake found.
inline std::string vectors_dir() {
    const char* shared = std::getenv("SHARED");
    return std::string(shared && *shared ? shared : FBE_SHARED_DEFAULT) + "/vectors/";
}

inline Bytes read_vector(const std::string& name) {
    std::ifstream file(vectors_dir() + name, std::ios::binary);
    EXPECT_TRUE(file.good()) << "cannot open " << vectors_dir() + name;
    return Bytes(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

inline std::string read_text(const std::string& name) {
    const Bytes bytes = read_vector(name);
    return std::string(bytes.begin(), bytes.end());
}

//! First difference of two byte strings, for readable failures.
inline std::string diff(const Bytes& got, const Bytes& expected) {
    if (got == expected)
        return "equal";
    std::ostringstream s;
    std::size_t i = 0;
    while (i < got.size() && i < expected.size() && got[i] == expected[i])
        ++i;
    s << "sizes " << got.size() << " / " << expected.size() << ", first difference at offset " << i;
    if (i < got.size() && i < expected.size())
        s << ": got 0x" << std::hex << int(got[i]) << ", expected 0x" << int(expected[i]);
    return s.str();
}

template <typename Model>
Bytes serialized(Model& model, std::size_t size) {
    const uint8_t* data = model.buffer().data();
    return Bytes(data, data + size);
}

//! A vector read with another version of its schema (MANIFEST cross_reads).
template <typename Model, typename T>
void check_cross_read(const char* file, bool verify, std::size_t returns, const std::string& text) {
    const Bytes bytes = read_vector(file);
    Model reader;
    reader.attach(bytes);
    EXPECT_EQ(reader.verify(), verify) << reader.error();
    T value;
    EXPECT_EQ(reader.deserialize(value), returns) << reader.error();
    EXPECT_EQ(value.string(), text);
}

//! One frame of a Sender stream: a root of the message type.
template <template <class> class Model, typename T>
void check_frame(const char* file, const char* text_file, std::size_t index, std::size_t offset, std::size_t size,
                 const T& value) {
    const Bytes stream = read_vector(file);
    ASSERT_LE(offset + size, stream.size());
    const Bytes frame(stream.begin() + static_cast<std::ptrdiff_t>(offset),
                      stream.begin() + static_cast<std::ptrdiff_t>(offset + size));

    std::istringstream lines(read_text(text_file));
    std::string line;
    for (std::size_t i = 0; i <= index; ++i)
        std::getline(lines, line);
    EXPECT_EQ(value.string(), line);

    Model<FBE::WriteBuffer> writer;
    const std::size_t written = writer.serialize(value);
    EXPECT_EQ(serialized(writer, written), frame) << diff(serialized(writer, written), frame);

    Model<FBE::ReadBuffer> reader;
    reader.attach(frame.data(), frame.size());
    EXPECT_TRUE(reader.verify()) << reader.error();
    T back;
    EXPECT_EQ(reader.deserialize(back), size) << reader.error();
    EXPECT_EQ(back.string(), line);
}

// ---------------------------------------------------------------- hostile input

//! Outcome of verify() and deserialize() on one buffer.
struct ReadResult {
    bool verified = false;
    std::size_t deserialized = 0;
    std::string verify_error;
    std::string read_error;
};

//! Runs both readers over exactly `size` bytes at `data`.
using Reader = ReadResult (*)(const uint8_t* data, std::size_t size);

template <template <class> class Model, typename T>
ReadResult read_versioned(const uint8_t* data, std::size_t size) {
    Model<FBE::ReadBuffer> reader;
    reader.attach(data, size);
    ReadResult result;
    result.verified = reader.verify();
    result.verify_error = reader.error();
    T value;
    result.deserialized = reader.deserialize(value);
    result.read_error = reader.error();
    return result;
}

template <template <class> class Model, typename T>
ReadResult read_final(const uint8_t* data, std::size_t size) {
    return read_versioned<Model, T>(data, size);
}

struct VectorReaders {
    const char* name;
    const char* versioned_file;
    const char* final_file;
    Reader versioned;
    Reader final;
};

//! Defined in the generated cases.cpp.
const std::vector<VectorReaders>& vector_readers();
