// Writers refuse what no reader reads (docs/limits.md 1): serialize() of both
// models and send() of both Senders refuse a value whose structs nest deeper
// than FBE::kMaxDepth (128) and write nothing; 128 levels are written and
// read back. schemas/cpp-tests/recursive.fbe; the same cases in Python are in
// tests/python/test_json_limits.py.

#include "recursive_final_protocol.h"
#include "recursive_protocol.h"
#include "rpc_protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// Only recursive types pay for the check (and only they can be refused).
static_assert(!FBE::Nesting<::recursive::Node>::bounded);
static_assert(FBE::Nesting<::rpc::Ping>::bounded);

const char* const kTooDeep = "cannot write recursive.Node.children: structs nested deeper than 128";

//! A chain of `levels` nodes (the root is level 1), ids 1..levels.
::recursive::Node chain(int levels) {
    ::recursive::Node node;
    node.id = levels;
    node.label = "leaf";
    for (int i = levels - 1; i >= 1; --i) {
        ::recursive::Node parent;
        parent.id = i;
        parent.children.push_back(std::move(node));
        node = std::move(parent);
    }
    return node;
}

//! A root whose first children are shallow and whose last child makes the
//! value `levels` deep: the walk looks at every element, not the first.
::recursive::Node wide(int levels) {
    ::recursive::Node root;
    root.id = 0;
    root.children.push_back(chain(3));
    root.children.push_back(chain(levels - 1));
    return root;
}

int levels_of(const ::recursive::Node& node) {
    int deepest = 0;
    for (const auto& child : node.children)
        deepest = std::max(deepest, levels_of(child));
    return 1 + deepest;
}

template <template <class> class Model>
void round_trips(const ::recursive::Node& value) {
    Model<FBE::WriteBuffer> writer;
    const std::size_t size = writer.serialize(value);
    ASSERT_GT(size, 0u) << writer.error();
    EXPECT_TRUE(writer.error().empty());
    ASSERT_TRUE(writer.verify()) << writer.error();
    Model<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    ::recursive::Node back;
    ASSERT_EQ(reader.deserialize(back), size) << reader.error();
    EXPECT_EQ(back.string(), value.string());
    EXPECT_EQ(levels_of(back), levels_of(value));
}

template <template <class> class Model>
void refused(const ::recursive::Node& value) {
    Model<FBE::WriteBuffer> writer;
    EXPECT_EQ(writer.serialize(value), 0u);
    EXPECT_EQ(writer.buffer().size(), 0u); // nothing appended
    EXPECT_EQ(writer.error(), kTooDeep);
    // The next value that fits is written, and the error is gone.
    EXPECT_GT(writer.serialize(chain(2)), 0u);
    EXPECT_TRUE(writer.error().empty()) << writer.error();
}

template <class TBase>
struct Out : TBase {
    std::vector<uint8_t> out;
    std::size_t onSend(const void* data, std::size_t size) override {
        out.insert(out.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        return size;
    }
};

template <class TBase>
struct In : TBase {
    std::vector<int> levels;
    std::vector<std::string> errors;
    void onReceive(const ::recursive::Node& value) override { levels.push_back(levels_of(value)); }
    void onReceiveError(FBE::ReceiveError /*error*/, const std::string& message) override {
        errors.push_back(message);
    }
};

template <class TSender, class TReceiver>
void sender_refuses_beyond_the_limit() {
    Out<TSender> sender;
    ASSERT_GT(sender.send(chain(128)), 0u) << sender.send_error();
    EXPECT_TRUE(sender.send_error().empty());
    const std::size_t sent = sender.out.size();
    for (const auto& deep : {chain(129), wide(129)}) {
        EXPECT_EQ(sender.send(deep), 0u);
        EXPECT_EQ(sender.send_error(), kTooDeep);
        EXPECT_EQ(sender.out.size(), sent); // nothing sent
        EXPECT_EQ(sender.buffer().size(), 0u); // nothing queued
    }
    EXPECT_EQ(sender.sent_messages(), 1u);
    ASSERT_GT(sender.send(wide(128)), 0u);
    EXPECT_TRUE(sender.send_error().empty()) << sender.send_error();

    In<TReceiver> receiver;
    receiver.receive(sender.out.data(), sender.out.size());
    EXPECT_EQ(receiver.errors, std::vector<std::string>{});
    EXPECT_EQ(receiver.levels, (std::vector<int>{128, 128}));
}

} // namespace

TEST(WriterDepth, TheLimitIsWrittenAndReadBack) {
    ASSERT_EQ(levels_of(chain(128)), 128);
    ASSERT_EQ(levels_of(wide(128)), 128);
    round_trips<FBE::recursive::NodeModel>(chain(128));
    round_trips<FBE::recursive::NodeFinalModel>(chain(128));
    round_trips<FBE::recursive::NodeModel>(wide(128));
    round_trips<FBE::recursive::NodeFinalModel>(wide(128));
}

TEST(WriterDepth, OneLevelMoreIsRefusedByTheModels) {
    ASSERT_EQ(levels_of(chain(129)), 129);
    ASSERT_EQ(levels_of(wide(129)), 129);
    refused<FBE::recursive::NodeModel>(chain(129));
    refused<FBE::recursive::NodeFinalModel>(chain(129));
    refused<FBE::recursive::NodeModel>(wide(129));
    refused<FBE::recursive::NodeFinalModel>(wide(129));
    refused<FBE::recursive::NodeModel>(chain(1000));
}

TEST(WriterDepth, OneLevelMoreIsRefusedBySenders) {
    sender_refuses_beyond_the_limit<FBE::recursive::Sender<>, FBE::recursive::Receiver<>>();
    sender_refuses_beyond_the_limit<FBE::recursive::FinalSender<>, FBE::recursive::FinalReceiver<>>();
}
