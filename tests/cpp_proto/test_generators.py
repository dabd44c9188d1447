"""fbec --cpp --json / --proto / --sender: which files, and what they hold.

The C++ suite in this folder compiles and runs the generated code; these
checks cover the command line and the text.
"""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RPC = os.path.join(ROOT, "examples", "cpp", "tcp", "rpc.fbe")
RPCEXT = os.path.join(ROOT, "tests", "cpp_proto", "schemas", "rpcext.fbe")


def fbec(tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "compiler"))
    subprocess.run([sys.executable, "-m", "fbec", "-q", f"--output={tmp_path}", *args], check=True, env=env)
    return sorted(os.listdir(tmp_path))


def test_proto_and_json_files(tmp_path):
    assert fbec(tmp_path, "--cpp", "--final", "--json", "--proto", f"--input={RPC}") == [
        "rpc.h", "rpc_field_models.h", "rpc_final_models.h", "rpc_final_protocol.h", "rpc_json.h", "rpc_models.h",
        "rpc_protocol.h"]


def test_sender_is_the_originals_spelling_of_proto(tmp_path):
    assert "rpc_protocol.h" in fbec(tmp_path, "--cpp", "--sender", f"--input={RPC}")


def test_final_protocol_only_with_final(tmp_path):
    files = fbec(tmp_path, "--cpp", "--proto", f"--input={RPC}")
    assert "rpc_protocol.h" in files and "rpc_final_protocol.h" not in files and "rpc_json.h" not in files


def test_protocol_classes_and_requests(tmp_path):
    fbec(tmp_path, "--cpp", "--final", "--proto", f"--input={RPC}")
    text = (tmp_path / "rpc_protocol.h").read_text()
    for name in ("class Sender", "class Receiver", "class Proxy", "class Client"):
        assert name in text
    assert "std::future<::rpc::Pong> request(const ::rpc::Ping& value, uint64_t timeout = 0)" in text
    assert "std::future<::rpc::OrderAccepted> request(const ::rpc::PlaceOrder& value, uint64_t timeout = 0)" in text
    # a request without a response has no timeout to use: the parameter stays, unnamed (-Wunused-parameter)
    assert "std::future<void> request(const ::rpc::Notice& value, uint64_t /*timeout*/ = 0)" in text
    assert "virtual bool onReceiveReject(const ::rpc::OrderRejected& reject)" in text
    final = (tmp_path / "rpc_final_protocol.h").read_text()
    for name in ("class FinalSender", "class FinalReceiver", "class FinalClient"):
        assert name in final
    assert "Proxy" not in final
    # the runtime's dispatch over one reader per message, each named for the errors (FBE::Receiver::dispatch)
    assert 'FBE::MessageReader<FBE::rpc::PingFinalModel<FBE::ReadBuffer>> PingReader{"rpc.Ping"};' in final
    assert "const bool known = this->template dispatch<true>(type, data, size, handle," in final
    assert "const bool known = this->template dispatch<false>(type, data, size, handle," in text   # the Proxy's
    assert "OrderMessageFinalModel" not in final and "PingFinalModel<TBuffer> PingModel" in final


def test_imports_are_virtual_bases_and_global_rejects_delegate(tmp_path):
    fbec(tmp_path, "--cpp", "--proto", f"--import={os.path.dirname(RPC)}", f"--input={RPCEXT}")
    text = (tmp_path / "rpcext_protocol.h").read_text()
    assert '#include "rpc_protocol.h"' in text
    assert "public virtual FBE::rpc::Sender<TBuffer>" in text
    assert "using FBE::rpc::Sender<TBuffer>::send;" in text
    # a global reject fails the request of its id in any table (FBE::Client::fail_request), the imports' too
    assert "if (this->fail_request(reject.id, reject.string()))" in text


def test_json_flattens_the_base(tmp_path):
    fbec(tmp_path, "--cpp", "--json", f"--input={os.path.join(ROOT, 'tests', 'cpp_proto', 'schemas', 'jsoncases.fbe')}")
    text = (tmp_path / "jsoncases_json.h").read_text()
    # the writer is the runtime's for every type with a table Fields<T>; the reader derives from StructReader
    assert "ValueWriter" not in text
    assert "struct ValueReader<TJson, ::jsoncases::Values> : StructReader<TJson, ::jsoncases::Values>" in text
    # the writer's table: the base's fields first, through the base's data members
    assert ('FBE::JSON::field(&::jsoncases::Base::origin, "origin"),\n'
            '        FBE::JSON::field(&::jsoncases::Values::c, "c"),') in text
    assert 'case 2: return detail::read_member<TJson>(member, value.byPoint, "byPoint");' in text


@pytest.mark.parametrize("option,unit", [("-t", "\t"), ("-n2", "  ")])
def test_indent_options(tmp_path, option, unit):
    fbec(tmp_path, "--cpp", "--proto", "--json", option, f"--input={RPC}")
    for name in ("rpc_protocol.h", "rpc_json.h"):
        lines = (tmp_path / name).read_text().splitlines()
        starts = (unit + "static bool", unit + "std::size_t send", unit + "virtual")
        assert any(line.startswith(starts) for line in lines), name
