# frozen_string_literal: true

# The roots of generated structs (Fbe::Value).
module Fbe
  # What every generated struct class includes: the roots of both models, verify, equality and the
  # text form over the methods fbec generates (fbe_write, fbe_read_body, fbe_write_final,
  # fbe_read_final_fields, fbe_values, fbe_key, fbe_text) and constants (FBE_NAME, FBE_TYPE_ID, FBE_FIELDS,
  # FBE_BODY_SIZE, FBE_COST, FBE_FINAL_MIN, FBE_LEVELS).
  #
  #   data = order.to_fbe                 # the versioned root (a binary String)
  #   Order.from_fbe(data)                # the value, or an Fbe::DecodeError naming type, field and offset
  #   Order.verify_fbe(data)              # true exactly when from_fbe succeeds
  #   order.to_final / Order.from_final / Order.verify_final: the final model
  # A value that cannot be written raises an Fbe::EncodeError naming the field path (Fbe::Explain).
  module Value
    def self.included(base)
      base.extend(ClassMethods)
    end

    # The class side: readers of roots and of struct values inside them.
    module ClassMethods
      # The value of a versioned root (u32 size | u32 offset of the struct | body and data): read by the
      # C accelerator when it is loaded (Fbe.accelerated?) and sure of every part of the input, else, and
      # whenever a check fails, in pure Ruby, which raises the error.
      def from_fbe(data, limits: nil)
        (ACCEL && Accel.from_fbe(self, data, limits)) || fbe_versioned(data, limits, false)
      end

      # The versioned root read in pure Ruby, whether or not the accelerator is loaded (what from_fbe
      # reads without it; benchmarks and tests compare both).
      def from_fbe_pure(data, limits: nil)
        fbe_versioned(data, limits, false)
      end

      # The struct of a versioned root, or nil when verify (its checks only, no value made: verify_fbe).
      def fbe_versioned(data, limits, verify)
        data = Fbe.binary(data)
        n = data.bytesize
        raise DecodeError.new('versioned root shorter than 8 bytes', nil, nil, 0) if n < 8

        total, off = data.unpack('L<L<')
        raise DecodeError.new("versioned root size #{total} below 16", nil, nil, 0) if total < 16
        raise DecodeError.new("versioned root size #{total} beyond the buffer of #{n} bytes", nil, nil, 0) if total > n
        raise DecodeError.new("root struct offset #{off} below 8", nil, nil, 4) if off < 8

        r = Reader.new(data, total, limits)
        r.verify = verify
        fbe_within_stack(r) { fbe_read(r, off) }
      end

      # The value of a final root (u32 size | u32 type id | fields), read as from_fbe reads the versioned one.
      def from_final(data, limits: nil)
        (ACCEL && Accel.from_final(self, data, limits)) || fbe_final(data, limits, false)
      end

      # The final root read in pure Ruby, whether or not the accelerator is loaded.
      def from_final_pure(data, limits: nil)
        fbe_final(data, limits, false)
      end

      # The struct of a final root, or nil when verify (its checks only, no value made: verify_final).
      def fbe_final(data, limits, verify)
        data = Fbe.binary(data)
        n = data.bytesize
        raise DecodeError.new('final root shorter than 8 bytes', nil, nil, 0) if n < 8

        size, tid = data.unpack('L<L<')
        raise DecodeError.new("final root size #{size} below 8", nil, nil, 0) if size < 8
        raise DecodeError.new("type id #{tid} where #{self::FBE_TYPE_ID} was expected", nil, nil, 4) if
          tid != self::FBE_TYPE_ID
        raise DecodeError.new("final root size #{size} beyond the buffer of #{n} bytes", nil, nil, 0) if size > n

        r = Reader.new(data, size, limits)
        r.verify = verify
        value = fbe_within_stack(r) { fbe_read_final(r) }
        raise DecodeError.new("final root covers #{r.pos} bytes, its size says #{size}", nil, nil, 0) if r.pos != size

        value
      end

      # The value of a JSON document (docs/format.md 8, read under docs/limits.md 7).
      def from_json(text, limits: nil)
        tree, r = JsonRead.parse(text, limits)
        fbe_within_stack(r) { fbe_read_json(tree, r) }
      end

      # The read in the block, under a max_depth deeper than Ruby's stack holds (Fbe::Limits take any):
      # nesting that exhausts the stack refused as nesting beyond max_depth is (docs/limits.md 1), a
      # DecodeError, never a SystemStackError.
      def fbe_within_stack(reader)
        yield
      rescue SystemStackError
        raise DecodeError.new("structs nested deeper than the stack holds (max_depth #{reader.max_depth})",
                              self::FBE_NAME)
      end

      # A struct value of a JSON object (its members read by the generated fbe_read_json_members).
      def fbe_read_json(node, r)
        members = JsonRead.object(node, nil)
        r.enter(nil, self::FBE_COST, self::FBE_NAME)
        value = allocate
        value.fbe_read_json_members(members, r)
        r.leave
        value
      rescue DecodeError => e
        raise e.json_leave(self::FBE_NAME)
      end

      # Whether from_fbe succeeds (docs/limits.md 4: the same checks, the same limits), the bytes
      # walked by the generated fbe_verify_body without making the value.
      def verify_fbe(data, limits: nil)
        return true if ACCEL && Accel.verify_fbe(self, data, limits)

        fbe_versioned(data, limits, true)
        true
      rescue DecodeError
        false
      end

      # Whether from_final succeeds, the bytes walked by the generated fbe_verify_final_fields.
      def verify_final(data, limits: nil)
        return true if ACCEL && Accel.verify_final(self, data, limits)

        fbe_final(data, limits, true)
        true
      rescue DecodeError
        false
      end

      # A versioned struct value whose body is at pos.
      def fbe_read(r, pos)
        r.struct_at(self, 0, pos, 4, nil)
      end

      # A final struct value at the reader's cursor.
      def fbe_read_final(r)
        fbe_struct.final(r)
      end

      # The codec of the class's values (Fbe::Types::Struct), made once.
      def fbe_struct
        @fbe_struct ||= Types::Struct.new(self)
      end
    end

    # The room of a root's header (its size and the struct's offset or type id), filled last.
    ROOT_ROOM = ("\0" * 8).b.freeze
    # A versioned root's header before its size is known: the struct's body follows it, at offset 8.
    VERSIONED_ROOM = [0, 8].pack('V2').freeze

    # The versioned root of the value (a binary String): written by the C accelerator when it is
    # loaded (Fbe.accelerated?) and sure of every part of the value, else in pure Ruby.
    def to_fbe
      fbe_writing { (ACCEL && Accel.to_fbe(self)) || fbe_root }
    end

    # The versioned root written in pure Ruby, whether or not the accelerator is loaded (what to_fbe
    # writes without it; benchmarks and tests compare both).
    def to_fbe_pure
      fbe_writing { fbe_root }
    end

    # The final root of the value (a binary String), written as to_fbe writes the versioned one.
    def to_final
      fbe_writing { (ACCEL && Accel.to_final(self)) || fbe_final_root }
    end

    # The final root written in pure Ruby, whether or not the accelerator is loaded.
    def to_final_pure
      fbe_writing { fbe_final_root }
    end

    # The root the block writes, after the depth check of a struct that can nest without a bound; a
    # value that cannot be written raises the EncodeError naming its field path.
    def fbe_writing
      Nesting.check(self) unless self.class::FBE_LEVELS
      yield
    rescue EncodeError, TypeError => e # TypeError: Array#pack given no Numeric for a float or double
      raise Explain.error(self, e)
    end

    # The pure-Ruby versioned root (the generated fbe_write of each struct, whose body is at 8: the
    # header's offset is written already, its size last).
    def fbe_root
      w = Writer.new(VERSIONED_ROOM)
      fbe_write(w)
      buffer = w.buffer
      buffer[0, 4] = [buffer.bytesize].pack('V')
      buffer
    end

    # The pure-Ruby final root (the generated fbe_write_final of each struct).
    def fbe_final_root
      w = Writer.new(ROOT_ROOM)
      fbe_write_final(w)
      buffer = w.buffer
      buffer[0, 8] = [buffer.bytesize, self.class::FBE_TYPE_ID].pack('L<L<')
      buffer
    end

    # The value's JSON (docs/format.md 8): the original's text, a UTF-8 String.
    def to_json(*_args)
      Nesting.check(self) unless self.class::FBE_LEVELS
      out = String.new(encoding: Encoding::UTF_8)
      fbe_json(out)
      out
    rescue EncodeError => e
      raise Explain.error(self, e)
    end

    # Every field's value equal, inherited fields included.
    def ==(other)
      other.class == self.class && other.fbe_values == fbe_values
    end

    # As keys of a Set or Hash, structs are the same when their [key] fields are (docs/limits.md 4:
    # the order and identity of the original's std::set and std::map; structs without [key]
    # fields are all the same key).
    def eql?(other)
      other.class == self.class && other.fbe_key == fbe_key
    end

    def hash
      [self.class, fbe_key].hash
    end

    # The value's text (docs/format.md 9): `Order(id=1,symbol="EURUSD",...)`.
    def to_s
      out = String.new(encoding: Encoding::BINARY)
      fbe_text(out)
      Fbe::Text.finish(out)
    end

    def inspect
      "#<#{self.class.name} #{self}>"
    end
  end

  # The bytes of data as a binary String (no copy when it is one).
  def self.binary(data)
    data.encoding == Encoding::BINARY ? data : data.b
  end
end
