// Where docs/design.md fixes a defect of the original (docs/cpp.md, "Deliberate
// differences"), checked on the golden vectors themselves.

#include "conformance.h"

#include "proto_models.h"
#include "test_final_models.h"
#include "test_models.h"

// docs/format.md 10.2: the original's versioned reader returns the schema default
// for an absent optional (f101 = true, f149 = the current time, ...); an
// absent optional reads as null here, as in the final model.
TEST(DesignFixes, AbsentOptionalReadsAsNull) {
    const Bytes bytes = read_vector("test_struct_optional_nulls.fbe.bin");
    FBE::test::StructOptionalModel<FBE::ReadBuffer> reader;
    reader.attach(bytes);
    test::StructOptional value;
    ASSERT_EQ(reader.deserialize(value), bytes.size()) << reader.error();
    EXPECT_FALSE(value.f101.has_value()); // the original: true
    EXPECT_FALSE(value.f149.has_value()); // the original: utc()
    EXPECT_FALSE(value.f152.has_value()); // the original: 123e4567-...
    EXPECT_EQ(value.string(), read_text("test_struct_optional_nulls.txt"));
}

// docs/format.md 5.3: the original's verify() accepts a vector count patched to a
// million in a 98-byte buffer and then builds a million elements.
TEST(DesignFixes, VerifyRejectsCountsTheBufferCannotHold) {
    Bytes bytes = read_vector("proto_account.fbe.bin");
    FBE::store<uint32_t>(bytes.data() + 0x68, 1000000);
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(bytes);
    EXPECT_FALSE(reader.verify());
    proto::Account value;
    EXPECT_EQ(reader.deserialize(value), 0u);
    EXPECT_TRUE(value.orders.empty() || value.orders.size() <= 3);
}

// docs/format.md 10.6: decimals keep all 28 digits (the original held a double).
TEST(DesignFixes, DecimalKeepsAllDigits) {
    test::StructSimple value;
    value.f29 = FBE::decimal_t("1234567890.123456789012345678");
    FBE::test::StructSimpleModel<> model;
    model.serialize(value);
    test::StructSimple back;
    ASSERT_GT(model.deserialize(back), 0u) << model.error();
    EXPECT_EQ(back.f29.to_string(), "1234567890.123456789012345678");
    FBE::test::StructSimpleFinalModel<> final_model;
    final_model.serialize(value);
    ASSERT_GT(final_model.deserialize(back), 0u);
    EXPECT_EQ(back.f29.to_string(), "1234567890.123456789012345678");
}

// docs/format.md 10.15: every root is self-relative, also the second one in a buffer.
TEST(DesignFixes, AppendedRootsAreSelfRelative) {
    const Bytes expected = read_vector("proto_account.fbe.bin");
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(expected);
    proto::Account account;
    ASSERT_EQ(reader.deserialize(account), expected.size());
    FBE::proto::AccountModel<> writer;
    writer.serialize(account);
    const std::size_t second = writer.serialize(account);
    ASSERT_EQ(writer.buffer().size(), 2 * second);
    const Bytes tail(writer.buffer().data() + second, writer.buffer().data() + 2 * second);
    EXPECT_EQ(tail, expected);
}
