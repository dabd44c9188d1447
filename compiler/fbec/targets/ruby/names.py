"""How a schema name becomes a Ruby identifier: the one place of the target's renaming rule
(docs/ruby.md "Names", docs/targets.md "Names").

A package is a module (`proto` -> `Proto`), types are classes in it (UpperCamelCase: `order_side`
-> `OrderSide`), fields are snake_case attributes (`orderId` -> `order_id`) and keyword arguments
of `new`, enum and flags values SCREAMING_SNAKE_CASE constants of their class, as RuboCop's
naming cops want them. An identifier that clashes in its scope gets a trailing underscore,
another while it still clashes (base.scope_idents). The scopes:

* the top level: the packages' modules, clear of Ruby's core classes and modules and of the
  libraries the generated code loads (`Fbe`, `Set`, `BigDecimal`);
* a package's module: its types, clear of the constants its code names (`Fbe`, `Set`, `Array`, `Float`);
* a struct: its fields (inherited ones first), clear of Ruby's keywords, of the methods every
  object has (`class`, `hash`, `send`...) and of the members the generated class defines
  (`to_fbe`, `fbe_write`...);
* an enum or flags class: its values, clear of the constants the class defines (`NAMES`...).

JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import TableIdents, scope_idents
from fbec.targets.rust.names import camel, words

KEYWORDS = frozenset({
    "BEGIN", "END", "alias", "and", "begin", "break", "case", "class", "def", "defined", "do", "else", "elsif",
    "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not", "or", "redo", "rescue", "retry",
    "return", "self", "super", "then", "true", "undef", "unless", "until", "when", "while", "yield",
    "__method__", "__FILE__", "__LINE__", "__ENCODING__",
})
# Methods of every Ruby object (Object's public ones and Kernel's that a receiver-less call reaches):
# an attribute of such a name would hide them.
OBJECT_METHODS = frozenset({
    "__id__", "__send__", "class", "clone", "define_singleton_method", "display", "dup", "enum_for", "extend",
    "freeze", "hash", "inspect", "instance_eval", "instance_exec", "instance_variable_get",
    "instance_variable_set", "instance_variables", "itself", "method", "methods", "object_id", "private_methods",
    "protected_methods", "public_method", "public_methods", "public_send", "remove_instance_variable", "send",
    "singleton_class", "singleton_method", "singleton_methods", "tap", "then", "to_enum", "to_s", "yield_self",
    "initialize", "raise", "format", "require", "loop", "lambda", "proc", "binding", "puts", "print", "p",
    "allocate", "new", "superclass", "instance_of", "is_a", "kind_of", "nil", "respond_to", "equal", "eql",
    "frozen", "block_given", "catch", "throw", "sleep", "rand", "srand", "exit", "abort", "fail", "gets",
    "select", "open", "system", "spawn", "exec", "fork", "trap", "warn", "caller", "sprintf", "printf",
    "putc", "readline", "readlines", "sub", "gsub", "chomp", "chop", "test", "at_exit", "autoload",
    "global_variables", "local_variables", "integer", "float", "string", "array", "rational", "complex",
})
# Members the generated struct classes define (docs/ruby.md): a field of such a name is renamed.
MEMBERS = frozenset({
    "to_fbe", "to_final", "from_fbe", "from_final", "verify_fbe", "verify_final", "fbe_write", "fbe_read",
    "fbe_read_body", "fbe_write_final", "fbe_read_final", "fbe_read_final_fields", "fbe_values", "fbe_key",
    "fbe_text", "to_json", "from_json", "to_h",
})
# Constants of Ruby's core and of the libraries the generated code loads: a package module of such a
# name would replace them.
CORE = frozenset({
    "ArgumentError", "Array", "BasicObject", "Binding", "Class", "Comparable", "Complex", "Data", "Dir",
    "Encoding", "Enumerable", "Enumerator", "Errno", "Exception", "FalseClass", "Fiber", "File", "FileTest",
    "Float", "GC", "Gem", "Hash", "IO", "IOError", "IndexError", "Integer", "Kernel", "KeyError", "Marshal",
    "MatchData", "Math", "Method", "Module", "Monitor", "Mutex", "NameError", "NilClass", "Numeric", "Object",
    "ObjectSpace", "Proc", "Process", "Queue", "Ractor", "Random", "Range", "RangeError", "Rational", "Regexp",
    "RubyVM", "RuntimeError", "Signal", "StandardError", "String", "Struct", "Symbol", "Thread", "Time",
    "TrueClass", "TypeError", "UnboundMethod", "Warning", "Set", "SortedSet", "BigDecimal", "SecureRandom",
    "JSON", "Oj", "MessagePack", "Fbe", "Minitest", "Socket", "TCPSocket", "TCPServer",
})
# Constants the generated code names from inside a package's module: a type of such a name is renamed.
MODULE_USES = frozenset({"Fbe", "Set", "Array", "Float"})
# Constants a generated enum or flags class defines besides its values.
ENUM_MEMBERS = frozenset({"BY_VALUE", "NAMES", "BITS", "SIGNED", "FBE_TYPE"})
# Ruby's global constants, which a value constant of the same name would hide in its class.
GLOBALS = frozenset({"STDIN", "STDOUT", "STDERR", "TRUE", "FALSE", "NIL", "ARGV", "ARGF", "ENV", "DATA",
                     "RUBY_VERSION", "RUBY_PLATFORM", "RUBY_ENGINE", "TOPLEVEL_BINDING"})
# The protocol classes of a package's module (fbec --ruby --proto).
PROTOCOL_CLASSES = ("Handlers", "Sender", "Receiver", "Proxy", "Client", "FinalSender", "FinalReceiver",
                    "FinalClient")


def snake(name: str) -> str:
    out = "_".join(w.lower() for w in words(name))
    return out if out[:1].isalpha() or out[:1] == "_" and out[1:2].isalpha() else "x" + out


def screaming(name: str) -> str:
    out = "_".join(w.upper() for w in words(name))
    return out if out[:1].isalpha() else "X" + out


class Idents(TableIdents):
    """The identifiers of one schema's generated Ruby code."""

    def __init__(self, schema: ir.Schema) -> None:
        super().__init__()
        self.modules = scope_idents(((p.name, camel(p.name)) for p in schema.packages), lambda x: x in CORE)
        self.files = {p.name: snake(p.name) for p in schema.packages}
        self.protocols: dict[tuple[str, str], str] = {}
        self.handlers: dict[tuple[str, str], str] = {}
        for p in schema.packages:
            self.scope_types(p, camel, lambda x: x in MODULE_USES)
            for s in p.structs:
                self.scope(self.fields, s.qualified, ((f.name, snake(f.name)) for f in s.all_fields),
                           lambda x: x in KEYWORDS or x in OBJECT_METHODS or x in MEMBERS)
            for e in p.enums + p.flags:
                self.scope(self.values, e.qualified, ((v.name, screaming(v.name)) for v in e.values),
                           lambda x: x in ENUM_MEMBERS or x in KEYWORDS or x in GLOBALS)
            self._protocol_scopes(p)

    def _protocol_scopes(self, p: ir.Package) -> None:
        types = {self.types[t.qualified] for t in p.enums + p.flags + p.structs}
        self.scope(self.protocols, p.name, ((n, n) for n in PROTOCOL_CLASSES),
                   lambda x: x in types or x in MODULE_USES)
        wanted = []
        for d in p.dispatch:
            pkg, _, name = d.type.rpartition(".")
            wanted.append((d.type, snake(name) if pkg == p.name else f"{snake(pkg)}_{snake(name)}"))
        self.scope(self.handlers, p.name, wanted, lambda x: False)

    def module(self, package: str) -> str:
        return self.modules[package]

    def file(self, package: str) -> str:
        """The generated file's name (without .rb), the name `require_relative` loads."""
        return self.files[package]

    def protocol(self, package: str, name: str) -> str:
        """A protocol class of a package's module (`Sender`, ..., `Handlers`: the module of the handler
        methods), clear of the package's types (beside a message named `Client` the client class is
        `Client_`) and of the constants the module's code names."""
        return self.protocols[(package, name)]

    def handler(self, package: str, qualified: str) -> str:
        """What a message's handler methods in a package's Receiver, Proxy and Client are named after
        (`on_receive_<it>`, `on_proxy_<it>`): its name in snake_case, `<package>_` before an imported
        one's, clear of each other."""
        return self.handlers[(package, qualified)]
