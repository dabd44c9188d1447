// The trade model of schemas/trade.fbe (package proto), as in the original
// FBE README: build an Account, serialize it with the versioned and the
// final model, verify the bytes and read them back.

#include "proto_final_models.h"
#include "proto_models.h"

#include <cstdlib>
#include <iostream>

int main() {
    proto::Account account(1, "Test", proto::State::good, proto::Balance("USD", 1000.0), proto::Balance("EUR", 100.0),
                           {});
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);

    // Versioned model: readers of older and newer schema versions interoperate.
    FBE::proto::AccountModel<FBE::WriteBuffer> writer;
    const std::size_t serialized = writer.serialize(account);
    if (!writer.verify()) {
        std::cerr << "verify failed: " << writer.error() << "\n";
        return EXIT_FAILURE;
    }

    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    proto::Account copy;
    if (!reader.verify() || reader.deserialize(copy) != serialized) {
        std::cerr << "read failed: " << reader.error() << "\n";
        return EXIT_FAILURE;
    }
    std::cout << "versioned: " << serialized << " bytes\n" << copy << "\n";

    // Final model: compact, both sides must use the same schema.
    FBE::proto::AccountFinalModel final_writer; // the template argument defaults to FBE::WriteBuffer
    const std::size_t compact = final_writer.serialize(account);
    FBE::proto::AccountFinalModel<FBE::ReadBuffer> final_reader;
    final_reader.attach(final_writer.buffer().data(), final_writer.buffer().size());
    proto::Account compact_copy;
    if (!final_reader.verify() || final_reader.deserialize(compact_copy) != compact) {
        std::cerr << "final read failed: " << final_reader.error() << "\n";
        return EXIT_FAILURE;
    }
    std::cout << "final: " << compact << " bytes\n" << compact_copy << "\n";
    return copy.string() == account.string() && compact_copy.string() == account.string() ? EXIT_SUCCESS
                                                                                           : EXIT_FAILURE;
}
