// Uses every part fbe_generate() gave the program: types, both binary
// models, JSON (RapidJSON) and the protocol sender/receiver.
#include "shop_final_models.h"
#include "shop_json.h"
#include "shop_models.h"
#include "shop_protocol.h"

#include <cstdlib>
#include <iostream>

namespace {

class Receiver : public FBE::shop::Receiver<FBE::WriteBuffer> {
public:
    using FBE::shop::Receiver<FBE::WriteBuffer>::onReceive;
    std::string received;

protected:
    void onReceive(const shop::ItemAdded& value) override { received = value.item.name; }
};

class Sender : public FBE::shop::Sender<FBE::WriteBuffer> {
public:
    explicit Sender(Receiver& receiver) : _receiver(receiver) {}

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        _receiver.receive(data, size);
        return size;
    }

private:
    Receiver& _receiver;
};

} // namespace

int main() {
    shop::Item item(7, "pear", shop::Side::buy, 1.25);

    FBE::shop::ItemModel<FBE::WriteBuffer> writer;
    writer.serialize(item);
    FBE::shop::ItemModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    shop::Item copy;
    if (!reader.verify() || reader.deserialize(copy) == 0 || !(copy.name == item.name)) {
        std::cerr << "versioned model: round trip failed\n";
        return EXIT_FAILURE;
    }

    FBE::shop::ItemFinalModel<FBE::WriteBuffer> final_writer;
    final_writer.serialize(item);
    if (!final_writer.verify()) {
        std::cerr << "final model: verify failed\n";
        return EXIT_FAILURE;
    }

    const std::string json = FBE::JSON::to_string(item);
    shop::Item from_json;
    if (!FBE::JSON::from_string(json, from_json) || from_json.string() != item.string()) {
        std::cerr << "JSON: round trip failed: " << json << "\n";
        return EXIT_FAILURE;
    }

    Receiver receiver;
    Sender sender(receiver);
    sender.send(shop::ItemAdded(item));
    if (receiver.received != "pear") {
        std::cerr << "protocol: nothing received\n";
        return EXIT_FAILURE;
    }
    std::cout << "consumer: " << item << " " << json << "\n";
    return EXIT_SUCCESS;
}
