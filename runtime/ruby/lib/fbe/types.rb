# frozen_string_literal: true

require 'set'

module Fbe
  # The codec of each kind of schema type. Generated code builds one per field type
  # (`Fbe::Types::Sequence.new(:vector, Fbe::Types::INT32)`) and calls it at the offsets the
  # compiler decided. Every codec answers:
  #
  # * size, fmin: its versioned slot and the fewest bytes of a value in the final model;
  #   share, cost: its share of a struct's decode charge and what one element of it costs in a
  #   collection (docs/limits.md 3);
  # * write(w, base, pos, value) / read(r, base, pos, field): the versioned slot at absolute pos,
  #   offsets counted from base (docs/format.md 3.4);
  # * fwrite(w, value) / fread(r, field): the final model at the writer's end and the reader's cursor;
  # * default, key(value) (the order of sets and maps), text(out, value) (docs/format.md 9).
  module Types
    # A fixed-size integer, char, wchar or timestamp.
    class Integer
      attr_reader :size, :fmin, :share, :cost, :min, :max

      def initialize(name, format, size, range)
        @name = name
        @format = format
        @size = @fmin = @share = @cost = size
        @range = range
        @min = range&.min
        @max = range&.max
      end

      def default
        0
      end

      def nests? = false

      # The value, when it is an Integer the type holds (what generated writers pack).
      def check(value)
        return value if value.is_a?(::Integer) && value >= @min && value <= @max

        raise EncodeError, "#{@name} value #{value.inspect} out of range #{@range}"
      end

      def write(w, _base, pos, value)
        w.put(pos, [check(value)].pack(@format))
      end

      def read(r, _base, pos, _field)
        r.data.unpack1(@format, offset: pos)
      end

      def fwrite(w, value)
        w << [check(value)].pack(@format)
      end

      def fread(r, field)
        r.data.unpack1(@format, offset: r.take(@size, 'value', field))
      end

      def json(out, value)
        out << check(value).to_s
      end

      def json_key(value)
        "\"#{check(value)}\""
      end

      def from_json(node, _r, field)
        Fbe::JsonRead.integer(node, @range, field)
      end

      def from_json_key(key, _r, field)
        Fbe::JsonRead.integer_key(key, @range, field)
      end

      def key(value)
        value
      end

      def text(out, value)
        out << value.to_s
      end
    end

    # char: one byte, ordered in sets and maps as C++'s signed char (docs/limits.md 7), printed raw.
    class Char < Integer
      # The byte 0..255, or the original's signed-char output 4294967168..4294967295.
      def from_json(node, r, field)
        return node & 0xFF if node.is_a?(::Integer) && node.between?(0xFFFFFF80, 0xFFFFFFFF)

        super
      end

      def from_json_key(key, _r, field)
        Fbe::JsonRead.integer_key(key, -128..255, field) & 0xFF
      end

      def key(value)
        value >= 0x80 ? value - 0x100 : value
      end

      def text(out, value)
        out << Fbe::Text.char(value)
      end
    end

    # wchar: a 32-bit code value, printed as its low byte.
    class WChar < Integer
      def text(out, value)
        out << Fbe::Text.char(value)
      end
    end

    # bool: one byte, any non-zero byte reads as true.
    class Bool
      def size = 1
      def fmin = 1
      def share = 1
      def cost = 1
      def default = false
      def nests? = false

      def write(w, _base, pos, value)
        w.put(pos, value ? "\x01" : "\x00")
      end

      def read(r, _base, pos, _field)
        r.data.getbyte(pos) != 0
      end

      def fwrite(w, value)
        w << (value ? "\x01" : "\x00")
      end

      def fread(r, field)
        r.data.getbyte(r.take(1, 'value', field)) != 0
      end

      def json(out, value)
        out << (value ? 'true' : 'false')
      end

      def json_key(value)
        value ? '"1"' : '"0"'
      end

      def from_json(node, _r, field)
        raise Fbe::JsonRead.mismatch('boolean', node, field) unless [true, false].include?(node)

        node
      end

      def from_json_key(key, _r, field)
        return true if %w[1 true].include?(key)
        return false if %w[0 false].include?(key)

        raise DecodeError.new("invalid bool key #{Fbe::JsonRead.quoted(key)}", nil, field)
      end

      def key(value)
        value ? 1 : 0
      end

      def text(out, value)
        out << (value ? 'true' : 'false')
      end
    end

    # float and double, bit for bit (docs/format.md 1: NaN payloads survive); a Float written as a float
    # rounds as C's conversion rounds it.
    class Float < Integer
      def initialize(name, format, size)
        super(name, format, size, nil)
      end

      def default
        0.0
      end

      def check(value)
        return value if value.is_a?(Numeric)

        raise EncodeError, "#{@name}: a number expected, got #{value.inspect}"
      end

      def write(w, _base, pos, value)
        w.put(pos, bytes(check(value)))
      end

      def fwrite(w, value)
        w << bytes(check(value))
      end

      # The bytes of a Numeric. Array#pack('e') writes a float as C's conversion of its double (every
      # other runtime's) but for every NaN (0x7FC00000) and what is just above the float range (infinity):
      # those bits are narrowed by hand.
      def bytes(value)
        return [value].pack(@format) if @size == 8 || value.to_f.abs <= FLOAT_MAX

        [narrow_bits(value)].pack('L<')
      end

      # Writes the bits of a float value that is a NaN or beyond FLOAT_MAX over the 4 bytes at pos of
      # buffer, which Array#pack('e') wrote (generated writers call it after their pack).
      def narrow(buffer, pos, value)
        buffer[pos, 4] = [narrow_bits(value)].pack('L<')
      end

      # The float bits of a NaN or of a magnitude beyond FLOAT_MAX as C's conversion of the double makes
      # them: a NaN keeps its sign, its quiet bit set, and the payload's top 22 bits; a magnitude rounds to
      # FLOAT_MAX below FLOAT_MAX + half its last place (FLOAT_ROUNDS_UP), to infinity from there.
      def narrow_bits(value)
        d = value.to_f
        bits = [d].pack('E').unpack1('Q<')
        sign = (bits >> 32) & 0x80000000
        return sign | 0x7FC00000 | ((bits >> 29) & 0x3FFFFF) if d.nan?

        sign | (d.abs < FLOAT_ROUNDS_UP ? 0x7F7FFFFF : 0x7F800000)
      end

      def json(out, value)
        value = check(value)
        out << Fbe::Json.double(@size == 4 ? bytes(value).unpack1('e') : value.to_f)
      end

      def json_key(value)
        value = check(value)
        Fbe::Json.real_key(@size == 4 ? bytes(value).unpack1('e') : value.to_f, @size == 4)
      end

      def from_json(node, _r, field)
        @size == 4 ? Fbe::JsonRead.single(node, field) : Fbe::JsonRead.double(node, field)
      end

      def from_json_key(key, _r, field)
        d = Fbe::JsonRead.double_key(key, field)
        @size == 4 ? [d].pack('e').unpack1('e') : d
      end

      def text(out, value)
        out << Fbe::Text.g(value.to_f)
      end
    end

    # decimal: a BigDecimal, 16 bytes (docs/format.md 2.4).
    class Decimal
      FORMAT = 'Q<L<L<'

      def size = 16
      def fmin = 16
      def share = 16
      def cost = 16
      def default = Fbe::Decimal::ZERO
      def nests? = false

      def write(w, _base, pos, value)
        w.put(pos, Fbe::Decimal.encode(value).pack(FORMAT))
      end

      def read(r, _base, pos, field)
        low, high, flags = r.data.unpack(FORMAT, offset: pos)
        Fbe::Decimal.decode(low, high, flags, field, pos)
      end

      def fwrite(w, value)
        w << Fbe::Decimal.encode(value).pack(FORMAT)
      end

      def fread(r, field)
        pos = r.take(16, 'value', field)
        low, high, flags = r.data.unpack(FORMAT, offset: pos)
        Fbe::Decimal.decode(low, high, flags, field, pos)
      end

      def json(out, value)
        out << "\"#{Fbe::Json.decimal(value)}\""
      end

      def json_key(value)
        "\"#{Fbe::Json.decimal(value)}\""
      end

      def from_json(node, _r, field)
        Fbe::JsonRead.decimal(node, field)
      end

      def from_json_key(key, _r, field)
        Fbe::JsonRead.decimal_text(key, field)
      end

      def key(value)
        value
      end

      def text(out, value)
        out << Fbe::Text.decimal(value)
      end
    end

    # uuid: its canonical text, 16 bytes in the order of the text.
    class Uuid
      def size = 16
      def fmin = 16
      def share = 16
      def cost = 16
      def default = Fbe::Uuid::NIL
      def nests? = false

      def write(w, _base, pos, value)
        w.put(pos, Fbe::Uuid.to_bytes(value))
      end

      def read(r, _base, pos, _field)
        Fbe::Uuid.from_bytes(r.data.byteslice(pos, 16))
      end

      def fwrite(w, value)
        w << Fbe::Uuid.to_bytes(value)
      end

      def fread(r, field)
        Fbe::Uuid.from_bytes(r.data.byteslice(r.take(16, 'value', field), 16))
      end

      def json(out, value)
        out << "\"#{Fbe::Uuid.from_bytes(Fbe::Uuid.to_bytes(value))}\""
      end

      def json_key(value)
        "\"#{Fbe::Uuid.from_bytes(Fbe::Uuid.to_bytes(value))}\""
      end

      def from_json(node, _r, field)
        Fbe::JsonRead.uuid(node, field)
      end

      def from_json_key(key, _r, field)
        Fbe::JsonRead.uuid(key, field)
      end

      def key(value)
        value.downcase
      end

      def text(out, value)
        out << "\"#{value}\""
      end
    end

    # string (UTF-8 String) and bytes (binary String): a u32 length and the bytes, out of line in
    # the versioned model.
    class Text
      def size = 4
      def fmin = 4
      def share = 4
      def cost = 4
      def nests? = false

      def initialize(binary)
        @binary = binary
        @what = binary ? 'bytes' : 'string'
      end

      def default
        @binary ? String.new(encoding: Encoding::BINARY) : +''
      end

      def check(value)
        return value if value.is_a?(String)

        raise EncodeError, "#{@what} expected, got #{value.inspect}"
      end

      # The String whose bytes are written: the value itself unless a string of another encoding than
      # UTF-8 (or binary) must be converted (what generated writers pack with 'a*').
      def raw(value)
        raise EncodeError, "#{@what} expected, got #{value.inspect}" unless value.is_a?(String)
        return value if @binary || value.encoding == Encoding::UTF_8 || value.encoding == Encoding::BINARY

        value.encode(Encoding::UTF_8)
      end

      def write(w, base, pos, value)
        b = raw(value)
        w.put_u32(pos, w.size - base)
        [b.bytesize, b].pack('L<a*', buffer: w.buffer)
      end

      def read(r, base, pos, field)
        @binary ? r.bytes(base, pos, field) : r.string(base, pos, field)
      end

      def fwrite(w, value)
        b = raw(value)
        [b.bytesize, b].pack('L<a*', buffer: w.buffer)
      end

      def fread(r, field)
        @binary ? r.final_bytes(field) : r.final_string(field)
      end

      def json(out, value)
        out << json_key(value)
      end

      def json_key(value)
        @binary ? "\"#{[check(value)].pack('m0')}\"" : Fbe::Json.string(check(value))
      end

      def from_json(node, r, field)
        value = @binary ? Fbe::JsonRead.base64(node, field) : Fbe::JsonRead.string(node, field)
        r.spend(value.bytesize, nil, field)
        value
      end

      alias from_json_key from_json

      def key(value)
        value.b
      end

      def text(out, value)
        out << (@binary ? "bytes[#{value.bytesize}]" : Fbe::Text.string(value))
      end
    end

    # An enum or flags class on its wire integer (flags on the unsigned integer of the same width).
    class Enum
      attr_reader :size, :fmin, :share, :cost

      def initialize(type, wire)
        @type = type
        @wire = wire
        @min = wire.min
        @max = wire.max
        @size = @fmin = @share = @cost = wire.size
      end

      def default
        @type.default
      end

      def nests? = false

      # The wire integer of a value (what generated writers pack).
      def wire(value)
        number = value.is_a?(@type) ? value.value : integer(value)
        number >= @min && number <= @max ? number : @wire.check(number)
      end

      # An Integer given for the enum is its wire value; anything else (a String, nil, a value of
      # another enum) is refused rather than written as its to_i.
      def integer(value)
        return value if value.is_a?(::Integer)

        raise EncodeError, "#{@type.name} or an Integer expected, got #{value.inspect}"
      end

      def write(w, base, pos, value)
        @wire.write(w, base, pos, value.is_a?(@type) ? value.value : integer(value))
      end

      def read(r, base, pos, field)
        @type.from_wire(@wire.read(r, base, pos, field))
      end

      def fwrite(w, value)
        @wire.fwrite(w, value.is_a?(@type) ? value.value : integer(value))
      end

      def fread(r, field)
        @type.from_wire(@wire.fread(r, field))
      end

      def json(out, value)
        out << json_number(value).to_s
      end

      def json_key(value)
        "\"#{json_number(value)}\""
      end

      # The number JSON writes: the value's, or that of its wire integer for a value of another class
      # (an Integer), which the binary writers take too; refused as they refuse it when its wire
      # integer does not hold it (an enum value made with new(256) of a uint8 enum).
      def json_number(value)
        number = wire(value)
        value.is_a?(@type) ? value.number : @type.from_wire(number).number
      end

      def from_json(node, r, field)
        @type.from_wire(@wire.from_json(signed(node), r, field))
      end

      def from_json_key(key, r, field)
        @type.from_wire(@wire.from_json(signed(Fbe::JsonRead.integer_key(key, -(1 << 63)..((1 << 64) - 1), field)), r,
                                        field))
      end

      # Flags are held as their unsigned bits; their JSON is the number of their underlying type.
      def signed(number)
        return number unless @type.const_defined?(:SIGNED) && @type::SIGNED && number.is_a?(::Integer)

        top = 1 << ((8 * @size) - 1)
        raise DecodeError, "JSON integer #{number} out of range" unless number.between?(-top, top - 1)

        number & ((top << 1) - 1)
      end

      # The order of sets and maps: the number, of a value of the enum or of an Integer (a String or nil
      # is refused as in a field).
      def key(value)
        json_number(value)
      end

      def text(out, value)
        out << value.to_s
      end
    end

    # A struct: a 4-byte slot holding its body's offset (versioned), its fields (final).
    class Struct
      SLOT_BEFORE_BODY = [4].pack('L<').freeze

      def size = 4
      def share = 0
      def cost = 0
      def nests? = true

      def initialize(type)
        @type = type
      end

      def fmin
        @type::FBE_FINAL_MIN
      end

      def default
        @type.new
      end

      # The value, when it is one of the struct's class (what generated writers write).
      def check(value)
        return value if value.is_a?(@type)

        raise EncodeError, "#{@type} expected, got #{value.class}"
      end

      def write(w, base, pos, value)
        check(value)
        w.put_u32(pos, value.fbe_write(w) - base)
      end

      # The values of a collection (an Array): its count and the offsets (from base) of the values' bodies,
      # appended one after the other, packed at once with the count; returns the offset of the count.
      def all(w, base, values)
        buffer = w.buffer
        at = buffer.bytesize
        n = values.length
        buffer << ("\0" * (4 + (4 * n)))
        type = @type
        slots = [n]
        i = 0
        while i < n # no block per value
          value = values[i]
          raise EncodeError, "#{type} expected, got #{value.class}" unless value.is_a?(type)

          slots << (value.fbe_write(w) - base)
          i += 1
        end
        buffer[at, 4 + (4 * n)] = slots.pack('V*')
        at - base
      end

      # The value of a present optional: its slot, which the body follows (its offset from the slot is
      # 4); returns the slot's offset from base.
      def present(w, base, value)
        raise EncodeError, "#{@type} expected, got #{value.class}" unless value.is_a?(@type)

        buffer = w.buffer
        at = buffer.bytesize
        buffer << SLOT_BEFORE_BODY
        value.fbe_write(w)
        at - base
      end

      # The final values of a collection, one after the other.
      def fwrite_all(w, values)
        values.each do |value|
          raise EncodeError, "#{@type} expected, got #{value.class}" unless value.is_a?(@type)

          value.fbe_write_final(w)
        end
      end

      def read(r, base, pos, field)
        r.struct_at(@type, base, r.data.unpack1('L<', offset: pos), pos, field)
      end

      # The values of a collection of count slots after its count at pos, offsets counted from base.
      def read_all(r, base, pos, count, field)
        type = @type
        values = r.data.byteslice(pos + 4, 4 * count).unpack('L<*')
        i = 0
        while i < count
          values[i] = r.struct_at(type, base, values[i], pos + 4 + (4 * i), field)
          i += 1
        end
        values
      end

      # A final value at the reader's cursor (a root's too: the class's fbe_read_final).
      def final(r)
        @name || resolve
        r.enter(r.pos, @cost, @name)
        if r.verify
          value = @type.fbe_verify_final_fields(r)
        else
          value = @type.allocate
          value.fbe_read_final_fields(r)
        end
        r.leave
        value
      rescue DecodeError => e
        raise e.within(@type::FBE_NAME)
      end

      def fwrite(w, value)
        raise EncodeError, "#{@type} expected, got #{value.class}" unless value.is_a?(@type)

        value.fbe_write_final(w)
      end

      def fread(r, _field)
        final(r)
      end

      def json(out, value)
        raise EncodeError, "#{@type} expected, got #{value.class}" unless value.is_a?(@type)

        value.fbe_json(out)
      end

      def from_json(node, r, field)
        @type.fbe_read_json(node, r)
      rescue DecodeError => e
        raise e.json_member(field)
      end

      def key(value)
        value.fbe_key
      end

      def text(out, value)
        value.fbe_text(out)
      end
    end

    # The struct's constants, asked when it is first read: a class may be declared before it is defined.
    class Struct
      private

      def resolve
        @type_id = @type::FBE_TYPE_ID
        @cost = @type::FBE_COST
        @name = @type::FBE_NAME
      end
    end

    # T?: a presence byte and the offset of a value slot, where the value is written with the base
    # moved to that slot (versioned); a flag byte and the value (final). nil is absent.
    class Optional
      def size = 5
      def fmin = 1
      def share = 1
      def cost = 1
      def default = nil

      attr_reader :element

      def initialize(element)
        @element = element
        @struct = element.is_a?(Struct)
      end

      def nests? = @element.nests?

      def write(w, base, pos, value)
        w.put(pos, [1, offset(w, base, value)].pack('CV')) unless value.nil?
      end

      # Appends a present value (its slot, then what the element writes out of line); returns the
      # slot's offset from base, 0 for nil (generated writers pack it with the presence byte).
      def offset(w, base, value)
        return 0 if value.nil?
        return @element.present(w, base, value) if @struct

        q = w.alloc(@element.size)
        @element.write(w, q, q, value)
        q - base
      end

      def read(r, base, pos, field)
        return nil if r.data.getbyte(pos) == 0

        off = r.u32(pos + 1)
        raise DecodeError.new('present optional with offset 0', nil, field, pos) if off == 0

        q = base + off
        r.claim(q, @element.size, 'optional value', field)
        @element.read(r, q, q, field)
      end

      def fwrite(w, value)
        if value.nil?
          w << "\x00"
        else
          w << "\x01"
          @element.fwrite(w, value)
        end
      end

      def fread(r, field)
        r.data.getbyte(r.take(1, 'optional flag', field)) == 0 ? nil : @element.fread(r, field)
      end

      def json(out, value)
        value.nil? ? out << 'null' : @element.json(out, value)
      end

      def from_json(node, r, field)
        node.nil? ? nil : @element.from_json(node, r, field)
      end

      def key(value)
        value.nil? ? [0] : [1, @element.key(value)]
      end

      def text(out, value)
        value.nil? ? out << 'null' : @element.text(out, value)
      end
    end

    # T[N]: N slots in place with the parent's base (versioned), N values (final).
    class FixedArray
      attr_reader :size, :share, :element

      def initialize(element, length)
        @element = element
        @length = length
        @size = element.size * length
        @share = element.share * length
      end

      # Asked when first read, not when made: a struct element's class may be declared, not yet defined.
      def fmin
        @element.fmin * @length
      end

      def nests? = @element.nests?

      def cost
        [1, @share].max
      end

      def default
        Array.new(@length) { @element.default }
      end

      def check(value)
        return value if value.is_a?(Array) && value.length == @length

        raise EncodeError, "array of #{@length} elements expected, got #{value.inspect[0, 40]}"
      end

      def write(w, base, pos, value)
        step = @element.size
        check(value).each_with_index { |e, i| @element.write(w, base, pos + (i * step), e) }
      end

      def read(r, base, pos, field)
        step = @element.size
        Array.new(@length) { |i| @element.read(r, base, pos + (i * step), field) }
      end

      def fwrite(w, value)
        check(value).each { |e| @element.fwrite(w, e) }
      end

      def fread(r, field)
        Array.new(@length) { @element.fread(r, field) }
      end

      def json(out, value)
        Fbe::Types.items(out, value, '[', ']') { |e| @element.json(out, e) }
      end

      def from_json(node, r, field)
        items = Fbe::JsonRead.array(node, field)
        raise DecodeError.new("expected #{@length} elements, got #{items.length}", nil, field) if
          items.length != @length

        Fbe::Types.json_items(items) { |e| @element.from_json(e, r, field) }
      end

      def key(value)
        value.map { |e| @element.key(e) }
      end

      def text(out, value)
        out << "[#{@length}]"
        Fbe::Types.items(out, value, '[', ']') { |e| @element.text(out, e) }
      end
    end

    # vector T[], list T() and set T! (one encoding): a count and the elements' slots, out of line
    # (versioned); a count and the elements (final). A vector or list is an Array, a set a Set
    # written in ascending order (key).
    class Sequence
      BRACKETS = { vector: %w[[ ]], list: %w[< >], set: %w[{ }] }.freeze

      def size = 4
      def fmin = 4
      def share = 4
      def cost = 4

      attr_reader :element

      def initialize(kind, element)
        @set = kind == :set
        @open, @close = BRACKETS.fetch(kind)
        @element = element
        @item = element.size
        @item_cost = element.cost
        @struct = element.is_a?(Struct)
      end

      def nests? = @element.nests?

      def default
        @set ? ::Set.new : []
      end

      # The fewest final bytes of an element, asked when first read (a struct's class may be declared,
      # not yet defined, when the codec is made).
      def item_min
        @element.fmin
      end

      def items(value)
        raise EncodeError, "#{@set ? 'Set' : 'Array'} expected, got #{value.class}" unless value.is_a?(Enumerable)
        return value unless @set

        Fbe::Types.distinct(value.sort_by { |e| @element.key(e) }, 'elements') { |e| @element.key(e) }
      end

      def write(w, base, pos, value)
        w.put_u32(pos, offset(w, base, value))
      end

      # Appends the collection's block (its count and slots, then what they write out of line);
      # returns its offset from base.
      def offset(w, base, value)
        items = @set || !value.is_a?(Array) ? items(value).to_a : value
        return @element.all(w, base, items) if @struct

        buffer = w.buffer
        p = buffer.bytesize
        n = items.length
        [n].pack('V', buffer:)
        buffer << ("\0" * (n * @item))
        items.each_with_index { |e, i| @element.write(w, base, p + 4 + (i * @item), e) }
        p - base
      end

      def read(r, base, pos, field)
        return r.reading { read(r, base, pos, field) } if @set && r.verify

        off = r.u32(pos)
        return default if off == 0

        q = base + off
        n = r.count(q, @item, @item_cost, field)
        return made(@element.read_all(r, base, q, n, field), field, q) if @struct

        out = []
        i = 0
        while i < n
          out << @element.read(r, base, q + 4 + (i * @item), field)
          i += 1
        end
        made(out, field, q)
      end

      def fwrite(w, value)
        items = items(value)
        w << [items.length].pack('L<')
        return @element.fwrite_all(w, items) if @struct

        items.each { |e| @element.fwrite(w, e) }
      end

      def fread(r, field)
        return r.reading { fread(r, field) } if @set && r.verify

        pos = r.pos
        n = r.final_count(@item_min ||= item_min, @item_cost, field)
        out = []
        n.times { out << @element.fread(r, field) }
        made(out, field, pos)
      end

      def made(items, field, pos)
        return items unless @set

        set = items.to_set
        raise DecodeError.new('duplicate key: two entries read as the same key', nil, field, pos) if
          set.size != items.length

        set
      end

      def json(out, value)
        Fbe::Types.items(out, items(value), '[', ']') { |e| @element.json(out, e) }
      end

      def from_json(node, r, field)
        items = Fbe::JsonRead.array(node, field)
        r.spend(items.length * @item_cost, nil, field)
        out = Fbe::Types.json_items(items) { |e| @element.from_json(e, r, field) }
        return out unless @set

        set = out.to_set
        raise DecodeError.new('two set elements read as the same element', nil, field) if set.size != out.length

        set
      end

      def key(value)
        items(value).map { |e| @element.key(e) }
      end

      def text(out, value)
        out << "[#{value.size}]"
        Fbe::Types.items(out, items(value), @open, @close) { |e| @element.text(out, e) }
      end
    end

    # map V<K> and hash V{K} (one encoding): a count and key and value slots in pairs. A Hash; a map
    # is written in ascending key order, a hash in the order it holds.
    class Mapping
      def size = 4
      def fmin = 4
      def share = 4
      def cost = 4

      def initialize(kind, key, value)
        @ordered = kind == :map
        @open, @close = @ordered ? ['<{', '}>'] : ['[{', '}]']
        @key = key
        @value = value
        @item = key.size + value.size
        @item_cost = key.cost + value.cost
      end

      def default
        {}
      end

      # The codecs of the keys and of the values (key(value) is a key's order).
      def key_type = @key
      def value_type = @value
      def nests? = @key.nests? || @value.nests?

      def item_min
        @key.fmin + @value.fmin
      end

      def entries(value)
        raise EncodeError, "Hash expected, got #{value.class}" unless value.is_a?(::Hash)

        unless @ordered
          # a hash is written in the order it holds; its keys are checked in the wire order of a map
          Fbe::Types.distinct(value.keys.sort_by { |k| @key.key(k) }, 'entries\' keys') { |k| @key.key(k) }
          return value.to_a
        end

        Fbe::Types.distinct(value.sort_by { |k, _| @key.key(k) }, 'entries\' keys') { |k, _| @key.key(k) }
      end

      def write(w, base, pos, value)
        entries = entries(value)
        p = w.alloc(4 + (entries.length * @item))
        w.put_u32(p, entries.length)
        w.put_u32(pos, p - base)
        ks = @key.size
        entries.each_with_index do |(k, v), i|
          at = p + 4 + (i * @item)
          @key.write(w, base, at, k)
          @value.write(w, base, at + ks, v)
        end
      end

      def read(r, base, pos, field)
        return r.reading { read(r, base, pos, field) } if r.verify

        off = r.u32(pos)
        return {} if off == 0

        q = base + off
        n = r.count(q, @item, @item_cost, field)
        out = {}
        ks = @key.size
        i = 0
        while i < n
          at = q + 4 + (i * @item)
          k = @key.read(r, base, at, field)
          out[k] = @value.read(r, base, at + ks, field)
          i += 1
        end
        made(out, n, field, q)
      end

      def fwrite(w, value)
        entries = entries(value)
        w << [entries.length].pack('L<')
        entries.each do |k, v|
          @key.fwrite(w, k)
          @value.fwrite(w, v)
        end
      end

      def fread(r, field)
        return r.reading { fread(r, field) } if r.verify

        pos = r.pos
        n = r.final_count(@item_min ||= item_min, @item_cost, field)
        out = {}
        n.times do
          k = @key.fread(r, field)
          out[k] = @value.fread(r, field)
        end
        made(out, n, field, pos)
      end

      def made(hash, count, field, pos)
        raise DecodeError.new('duplicate key: two entries read as the same key', nil, field, pos) if
          hash.size != count

        hash
      end

      # An object keyed by the keys' text; with struct keys an array of [key, value] pairs.
      def json(out, value)
        if @key.is_a?(Struct)
          return Fbe::Types.items(out, entries(value), '[', ']') do |(k, v)|
            out << '['
            @key.json(out, k)
            out << ','
            @value.json(out, v)
            out << ']'
          end
        end
        Fbe::Types.items(out, entries(value), '{', '}') do |(k, v)|
          out << @key.json_key(k) << ':'
          @value.json(out, v)
        end
      end

      def from_json(node, r, field)
        pairs = @key.is_a?(Struct) ? json_pairs(node, field) : Fbe::JsonRead.object(node, field).to_a
        r.spend(pairs.length * @item_cost, nil, field)
        out = {}
        pairs.each_with_index do |(k, v), i|
          key = @key.is_a?(Struct) ? @key.from_json(k, r, field) : @key.from_json_key(k, r, field)
          out[key] = @value.from_json(v, r, field)
        rescue DecodeError => e
          raise e.json_step(@key.is_a?(Struct) ? "[#{i}]" : Fbe::JsonRead.key_step(k))
        end
        raise DecodeError.new('two map keys read as the same key', nil, field) if out.size != pairs.length

        out
      end

      def json_pairs(node, field)
        Fbe::JsonRead.array(node, field).each do |pair|
          unless pair.is_a?(Array) && pair.length == 2
            raise DecodeError.new('JSON [key, value] pair expected', nil,
                                  field)
          end
        end
      end

      def key(value)
        entries(value).map { |k, v| [@key.key(k), @value.key(v)] }
      end

      def text(out, value)
        out << "[#{value.size}]"
        Fbe::Types.items(out, entries(value), @open, @close) do |(k, v)|
          @key.text(out, k)
          out << '->'
          @value.text(out, v)
        end
      end
    end

    # Appends open, each item's text (the block) separated by commas, and close.
    # A set or map holding a key twice is refused by every reader (docs/limits.md 4), so no writer
    # writes one: a Set or Hash may hold two values of one key (an Integer and the enum's value of that
    # number, 1.5 and 1.50 as Floats of a float key, 0.0 and -0.0). In the wire order two such are
    # neighbours: one comparison of keys each.
    def self.distinct(sorted, what)
      previous = nil
      sorted.each_with_index do |e, i|
        k = yield(e)
        if i > 0 && k == previous
          raise EncodeError, "two #{what} are the same, [#{i - 1}] and [#{i}] in the written order"
        end

        previous = k
      end
      sorted
    end

    def self.items(out, items, open, close)
      out << open
      items.each_with_index do |e, i|
        out << ',' if i.positive?
        yield e
      end
      out << close
    end

    # The values read from a JSON array's elements; an error names the element's index.
    def self.json_items(items)
      items.each_with_index.map do |node, i|
        yield node
      rescue DecodeError => e
        raise e.json_step("[#{i}]")
      end
    end

    FLOAT_MAX = 3.4028234663852886e38          # the largest finite float
    FLOAT_LOWEST = -FLOAT_MAX
    FLOAT_ROUNDS_UP = 3.4028235677973366e38    # FLOAT_MAX + half its last place: rounds to infinity (ties to even)
    BOOL = Bool.new.freeze
    BYTE = Integer.new('byte', 'C', 1, 0..0xFF).freeze
    CHAR = Char.new('char', 'C', 1, 0..0xFF).freeze
    WCHAR = WChar.new('wchar', 'L<', 4, 0..0xFFFFFFFF).freeze
    INT8 = Integer.new('int8', 'c', 1, -0x80..0x7F).freeze
    UINT8 = Integer.new('uint8', 'C', 1, 0..0xFF).freeze
    INT16 = Integer.new('int16', 's<', 2, -0x8000..0x7FFF).freeze
    UINT16 = Integer.new('uint16', 'S<', 2, 0..0xFFFF).freeze
    INT32 = Integer.new('int32', 'l<', 4, -0x80000000..0x7FFFFFFF).freeze
    UINT32 = Integer.new('uint32', 'L<', 4, 0..0xFFFFFFFF).freeze
    INT64 = Integer.new('int64', 'q<', 8, -0x8000000000000000..0x7FFFFFFFFFFFFFFF).freeze
    UINT64 = Integer.new('uint64', 'Q<', 8, 0..0xFFFFFFFFFFFFFFFF).freeze
    TIMESTAMP = Integer.new('timestamp', 'Q<', 8, 0..0xFFFFFFFFFFFFFFFF).freeze
    FLOAT = Float.new('float', 'e', 4).freeze
    DOUBLE = Float.new('double', 'E', 8).freeze
    DECIMAL = Decimal.new.freeze
    UUID = Uuid.new.freeze
    STRING = Text.new(false).freeze
    BYTES = Text.new(true).freeze
  end
end
