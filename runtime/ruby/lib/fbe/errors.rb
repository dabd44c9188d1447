# frozen_string_literal: true

module Fbe
  # The base of every error the runtime and generated code raise on purpose.
  class Error < StandardError; end

  # Bytes that cannot be decoded. #type is the qualified schema type being read
  # ("proto.Account"), #field the field, #offset the absolute position in the buffer;
  # each may be nil when unknown. The message names them: "struct offset 0 (proto.Account.wallet, offset 16)".
  class DecodeError < Error
    # JSON readers: the path from the document's root, "proto.Account.orders[1].price" (built on
    # the way out by #json_step, #json_member and #json_leave).
    attr_reader :reason, :type, :field, :offset, :json_path

    def initialize(reason, type = nil, field = nil, offset = nil)
      @reason = reason
      @type = type
      @field = field
      @offset = offset
      super(reason)
    end

    # Records the innermost struct type once (the readers of each struct call it on the way out).
    def within(type)
      @type ||= type
      self
    end

    # Leaving an element of a JSON array or object: its index or key, "[1]".
    def json_step(step)
      @json_below = "#{step}#{@json_below}"
      self
    end

    # Leaving a struct read from the member `name` of the struct around it.
    def json_member(name)
      @json_member = name
      self
    end

    # Leaving a struct of this type read from JSON: the path below it grows by the member that failed.
    def json_leave(type)
      within(type)
      inner = "#{@json_path ? @json_member : @field}#{@json_below}"
      @json_below = inner.empty? ? nil : ".#{inner}"
      @json_path = "#{type}#{@json_below}"
      @json_member = nil
      self
    end

    def message
      where = []
      if @json_path
        where << @json_path
      elsif @type
        where << (@field ? "#{@type}.#{@field}" : @type)
      elsif @field
        where << @field
      end
      where << "offset #{@offset}" if @offset
      where.empty? ? @reason : "#{@reason} (#{where.join(', ')})"
    end

    alias to_s message
  end

  # A value that cannot be encoded: out of range, wrong type, nested too deep.
  class EncodeError < Error; end

  # Structs nested deeper than the depth limit: an EncodeError of the whole value, not of a part.
  class DepthError < EncodeError; end
end
