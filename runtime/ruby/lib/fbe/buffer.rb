# frozen_string_literal: true

module Fbe
  BUDGET_EXCEEDED = 'decode budget exceeded'

  # An output buffer: a binary String that grows at its end (docs/format.md 3.5, allocation order).
  class Writer
    attr_reader :buffer

    EMPTY = ''.b.freeze

    # A writer whose buffer starts with the bytes of start (a copy).
    def initialize(start = EMPTY)
      @buffer = +start
    end

    # Appends size zero bytes; returns their position.
    def alloc(size)
      p = @buffer.bytesize
      @buffer << ("\0" * size)
      p
    end

    # Writes packed bytes at pos (within what was allocated).
    def put(pos, bytes)
      @buffer[pos, bytes.bytesize] = bytes
    end

    # Appends a versioned struct body's header and room for its field slots; returns its position.
    def body(size, type_id)
      p = @buffer.bytesize
      @buffer << [size, type_id].pack('L<L<') << ("\0" * (size - 8))
      p
    end

    def put_u32(pos, value)
      @buffer[pos, 4] = [value].pack('L<')
    end

    # Appends bytes.
    def <<(bytes)
      @buffer << bytes
      self
    end

    def size
      @buffer.bytesize
    end
  end

  # The state of one binary decode: the bytes, their usable size, the budget and depth of
  # docs/limits.md, and in the versioned model `mark`, the end of the last out-of-line block read
  # (blocks follow each other in allocation order, docs/limits.md 2); in the final model `pos`, the cursor.
  # A verifying reader (verify_fbe, verify_final) makes the same checks and no values.
  class Reader
    attr_reader :data, :size, :max_depth
    attr_accessor :mark, :pos, :budget, :depth, :verify

    def initialize(data, size = nil, limits = nil)
      @data = data.encoding == Encoding::BINARY ? data : data.b
      n = @data.bytesize
      @size = size.nil? || size > n ? n : size
      limits ||= DEFAULT_LIMITS
      @budget = (limits.budget_factor * @size) + limits.budget_slack
      @max_depth = limits.max_depth
      @depth = 0
      @mark = 8
      @pos = 8
      @verify = false
    end

    def u8(pos)
      @data.getbyte(pos)
    end

    def u32(pos)
      @data.unpack1('L<', offset: pos)
    end

    # Charges cost bytes for a value made at pos.
    def spend(cost, pos, field = nil)
      @budget -= cost
      raise DecodeError.new(BUDGET_EXCEEDED, nil, field, pos) if @budget < 0
    end

    # One struct value deeper, costing cost (leave with #leave).
    def enter(pos, cost, type)
      @depth += 1
      @budget -= cost
      return if @depth <= @max_depth && @budget >= 0

      deep = @depth > @max_depth
      @depth -= 1
      raise DecodeError.new("structs nested deeper than #{@max_depth}", type, nil, pos) if deep

      raise DecodeError.new(BUDGET_EXCEEDED, type, nil, pos)
    end

    def leave
      @depth -= 1
    end

    # The versioned struct value of type (a generated class) whose offset off, from base, is in the slot
    # at slot: its body checked and entered (one level deeper, charged the type's cost), its fields read
    # by the class's fbe_read_body from the header and slots unpacked here (checked by fbe_verify_body,
    # nil, when verifying), its errors named by the type. The one call of every struct value read: its
    # checks are inline (a call costs what three checks do).
    def struct_at(type, base, off, slot, field) # rubocop:disable Metrics/PerceivedComplexity
      raise DecodeError.new('struct offset 0', nil, field, slot) if off == 0

      pos = base + off
      refuse_place(type, pos) if pos < @mark || pos + 8 > @size
      # the header with every field of the type's version when the buffer holds that much
      values = @data.unpack(pos + type::FBE_BODY_SIZE <= @size ? type::FBE_UNPACK : 'L<L<', offset: pos)
      n = values[0]
      refuse_header(type, pos, n, values[1]) if n < 8 || pos + n > @size || values[1] != type::FBE_TYPE_ID
      @mark = pos + n
      @depth += 1
      @budget -= type::FBE_COST
      refuse_level(type, pos) unless @depth <= @max_depth && @budget >= 0
      if @verify
        value = type.fbe_verify_body(self, pos, n, values)
      else
        value = type.allocate
        value.fbe_read_body(self, pos, n, values)
      end
      @depth -= 1
      value
    rescue DecodeError => e
      raise e.within(type::FBE_NAME)
    end

    # Claims the out-of-line block [pos, pos + size): it must follow the previous one and fit the buffer.
    def claim(pos, size, what, field)
      raise backwards(what, pos, field) if pos < @mark
      raise DecodeError.new("#{what} beyond the end of the buffer", nil, field, pos) if pos + size > @size

      @mark = pos + size
    end

    # A versioned string's or bytes' block at pos: its bytes (binary; nil when verifying), charged.
    def block(pos, what, field, encoding = Encoding::BINARY)
      raise backwards(what, pos, field) if pos < @mark
      raise DecodeError.new("#{what} size beyond the end of the buffer", nil, field, pos) if pos + 4 > @size

      n = @data.unpack1('L<', offset: pos)
      e = pos + 4 + n
      raise DecodeError.new("#{what} of #{n} bytes beyond the end of the buffer", nil, field, pos) if e > @size

      @mark = e
      @budget -= n
      raise DecodeError.new(BUDGET_EXCEEDED, nil, field, pos) if @budget < 0

      @data.byteslice(pos + 4, n).force_encoding(encoding) unless @verify
    end

    # What the block yields read into values even when verifying: a set's or map's elements are compared.
    def reading
      verify = @verify
      @verify = false
      yield
    ensure
      @verify = verify
    end

    # A versioned string whose block is at pos (its offset was not 0): UTF-8.
    def string_at(pos, field)
      block(pos, 'string', field, Encoding::UTF_8)
    end

    # The count of a versioned collection block at pos with item-byte slots, each costing cost.
    def count(pos, item, cost, field)
      raise backwards('collection', pos, field) if pos < @mark
      raise DecodeError.new('collection size beyond the end of the buffer', nil, field, pos) if pos + 4 > @size

      n = u32(pos)
      raise DecodeError.new("count #{n} exceeds the buffer", nil, field, pos) if n * item > @size - pos - 4

      @mark = pos + 4 + (n * item)
      spend(n * cost, pos, field)
      n
    end

    # Final model: claims size bytes at the cursor (what names the value); returns their position.
    def take(size, what, field)
      p = @pos
      raise DecodeError.new("#{what} beyond the end of the buffer", nil, field, p) if p + size > @size

      @pos = p + size
      p
    end

    # Final model: a run of fixed-size fields, claimed with one check; description names each
    # field and its size ("id=4,price=8"), so the error names the first one missing.
    def run(size, description)
      p = @pos
      if p + size > @size
        at = p
        description.split(',').each do |item|
          name, bytes = item.split('=')
          width = bytes.split('*').map(&:to_i).reduce(:*)
          raise DecodeError.new('value beyond the end of the buffer', nil, name, at) if at + width > @size

          at += width
        end
      end
      @pos = p + size
      p
    end

    # Final model: a string's or bytes' length and bytes at the cursor, charged.
    def final_block(what, field, encoding = Encoding::BINARY)
      p = @pos
      raise DecodeError.new("#{what} size beyond the end of the buffer", nil, field, p) if p + 4 > @size

      n = @data.unpack1('L<', offset: p)
      raise DecodeError.new("#{what} of #{n} bytes beyond the end of the buffer", nil, field, p) if p + 4 + n > @size

      @pos = p + 4 + n
      @budget -= n
      raise DecodeError.new(BUDGET_EXCEEDED, nil, field, p) if @budget < 0

      @data.byteslice(p + 4, n).force_encoding(encoding) unless @verify
    end

    # A versioned string whose offset slot is at pos (offsets counted from base): UTF-8, '' for offset 0.
    def string(base, pos, field)
      off = @data.unpack1('L<', offset: pos)
      off == 0 ? +'' : block(base + off, 'string', field, Encoding::UTF_8)
    end

    # Versioned bytes whose offset slot is at pos (offsets counted from base): binary, empty for offset 0.
    def bytes(base, pos, field)
      off = @data.unpack1('L<', offset: pos)
      off == 0 ? String.new(encoding: Encoding::BINARY) : block(base + off, 'bytes', field)
    end

    # Final model: a string at the cursor (UTF-8).
    def final_string(field)
      final_block('string', field, Encoding::UTF_8)
    end

    # Final model: bytes at the cursor (binary).
    def final_bytes(field)
      final_block('bytes', field)
    end

    # Final model: a collection's count at the cursor; item is the fewest bytes of one element.
    def final_count(item, cost, field)
      p = take(4, 'collection size', field)
      n = u32(p)
      raise DecodeError.new("count #{n} exceeds the buffer", nil, field, p) if n * item > @size - p - 4

      spend(n * cost, p, field)
      n
    end

    private

    def refuse_place(type, pos)
      raise backwards('struct body', pos, nil, type::FBE_NAME) if pos < @mark

      raise DecodeError.new('struct header beyond the end of the buffer', type::FBE_NAME, nil, pos)
    end

    def refuse_header(type, pos, size, type_id)
      name = type::FBE_NAME
      raise DecodeError.new("struct body size #{size} below 8", name, nil, pos) if size < 8
      raise DecodeError.new("struct body of #{size} bytes beyond the end of the buffer", name, nil, pos) if
        pos + size > @size

      raise DecodeError.new("type id #{type_id} where #{type::FBE_TYPE_ID} was expected", name, nil, pos)
    end

    # Undoes the level struct_at entered and raises the error of the limit it broke.
    def refuse_level(type, pos)
      @depth -= 1
      @budget += type::FBE_COST
      enter(pos, type::FBE_COST, type::FBE_NAME)
    end

    def backwards(what, pos, field, type = nil)
      DecodeError.new("#{what} at #{pos} before the end of the previous block (#{@mark}): out-of-line blocks " \
                      'must follow each other in allocation order', type, field, pos)
    end
  end
end
