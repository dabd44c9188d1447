# frozen_string_literal: true

require 'set'

# The protocol layer (docs/format.md 7): frames on a byte stream. The code fbec --ruby --proto
# generates for a package (Sender, Receiver, Proxy, Client and, with --final, FinalSender,
# FinalReceiver, FinalClient) derives from the classes here and adds only its dispatch tables and
# one overridable handler method per message.
module Fbe
  # Why a receiver did not deliver a frame: #kind (below), #offset (the frame's first byte in the
  # stream, counted from the receiver's start or last reset), #size (the size the frame declared)
  # and, for a body that does not decode, #decode_error (the Fbe::DecodeError naming type, field
  # and offset inside the frame). Kinds:
  #   :too_small    a size below the minimum frame (16 versioned, 8 final): the stream is lost until reset
  #   :model_notice the other end's model notice (docs/format.md 7.4): the end of the stream
  #   :too_large    a size above max_frame_size: the frame's bytes are skipped as they arrive, never buffered
  #   :bad_header   a versioned frame whose struct offset points outside it; skipped
  #   :unknown_type no message of the package or its imports has the frame's type id; skipped
  #   :invalid_body the body does not decode; skipped
  class FrameError < Error
    KINDS = { too_small: 'frame too small', model_notice: 'model notice', too_large: 'frame too large',
              bad_header: 'bad frame header', unknown_type: 'unknown type', invalid_body: 'invalid body' }.freeze

    attr_reader :kind, :offset, :size, :decode_error

    def initialize(kind, detail, offset, size, decode_error = nil)
      @kind = kind
      @offset = offset
      @size = size
      @decode_error = decode_error
      super("#{KINDS.fetch(kind)}: #{detail}#{": #{decode_error.message}" if decode_error} " \
            "(frame at stream offset #{offset})")
    end

    # Whether the receiver lost the stream (nothing after this frame is read until reset).
    def lost?
      %i[too_small model_notice].include?(@kind)
    end
  end

  # A request that got no response (docs/format.md 7.6): #request names the request's type, #id its
  # id, #failure why (:reject, :timeout, :reset, :duplicate, :send) and #value is the reject message.
  class RequestError < Error
    attr_reader :request, :id, :failure, :value

    def initialize(request, id, failure, detail, value = nil)
      @request = request
      @id = id
      @failure = failure
      @value = value
      super("#{request} #{id}: #{detail}")
    end
  end

  # What the frames of a stream share: sizes, the type id, the model notice.
  module Protocol
    # The smallest versioned frame: the root of an empty struct (docs/format.md 7.1).
    MIN_VERSIONED_FRAME = 16
    # The smallest final frame.
    MIN_FINAL_FRAME = 8
    # The model notices (docs/format.md 7.4): the frame sizes 1 (the end reads versioned frames) and 2 (final).
    NOTICE_VERSIONED = 1
    NOTICE_FINAL = 2

    module_function

    # The 4 bytes an end sends before it closes a connection whose frames made no sense in its model.
    def model_notice(final)
      [final ? NOTICE_FINAL : NOTICE_VERSIONED].pack('L<')
    end

    # What a receiver reading final (or versioned) frames says of the model notice size (1 or 2).
    def model_notice_text(size, final)
      theirs = size == NOTICE_FINAL ? 'final' : 'versioned'
      ours = final ? 'final' : 'versioned'
      return "the other end (reading #{theirs} frames too) refused a frame of ours and closed" if theirs == ours

      "the other end reads #{theirs} frames and refused ours: this end sends #{ours} frames " \
        '(start both ends with the same model)'
    end

    # The type id of a whole frame: a final frame's at +4, a versioned frame's in the root struct's body.
    def frame_type(frame, final, offset = 0)
      n = frame.bytesize
      if final
        raise FrameError.new(:too_small, 'final frame shorter than 8 bytes', offset, n) if n < MIN_FINAL_FRAME

        return frame.unpack1('L<', offset: 4)
      end
      raise FrameError.new(:too_small, 'versioned frame shorter than 16 bytes', offset, n) if n < MIN_VERSIONED_FRAME

      at = frame.unpack1('L<', offset: 4)
      if at < 8 || at > n - 8
        raise FrameError.new(:bad_header, "struct offset #{at} points outside the frame of #{n} bytes", offset, n)
      end

      frame.unpack1('L<', offset: at + 4)
    end
  end

  # What a Sender and a Client share: messages serialized into frames handed to the transport
  # (docs/format.md 7.3), a callable (`->(bytes) { ... }`) or anything with `write` (a socket, an
  # IO); without one, frames queue in #buffered until #reset. A value nested deeper than the depth
  # limit is refused with its Fbe::EncodeError and nothing is sent.
  module Sending
    attr_accessor :transport
    attr_reader :sent_messages

    # Serializes a message of the package into a frame and sends it; returns the frame's size.
    def send_message(value)
      unless self.class::FBE_SENDS.include?(value.class)
        raise ArgumentError, "#{value.class} is not a message #{self.class} sends"
      end

      frame = self.class::FINAL ? value.to_final : value.to_fbe
      send_frame(frame)
      frame.bytesize
    end

    # Sends a frame as it is (a Proxy forwarding one).
    def send_frame(frame)
      @sent_messages += 1
      t = @transport
      if t.nil?
        @queue << frame
      elsif t.respond_to?(:call)
        t.call(frame)
      else
        t.write(frame)
      end
    end

    # The queued frames' bytes (no transport).
    def buffered
      @queue
    end

    private

    def fbe_sending(transport)
      @transport = transport
      @queue = String.new(encoding: Encoding::BINARY)
      @sent_messages = 0
    end

    def fbe_clear_queue
      @queue = String.new(encoding: Encoding::BINARY)
    end
  end

  # Sends messages as versioned frames (FINAL: final ones). Generated Senders fill FBE_SENDS, the
  # messages of the package and of its imports.
  #   sender = Proto::Sender.new(socket)
  #   sender.send_message(Proto::OrderMessage.new(...))
  class Sender
    include Sending

    FINAL = false
    FBE_SENDS = Set.new.freeze

    def initialize(transport = nil)
      fbe_sending(transport)
    end

    # Drops the queued frames.
    def reset
      fbe_clear_queue
    end
  end

  # Splits a byte stream fed in chunks of any size (single bytes included) into frames and delivers
  # each whole frame (docs/format.md 7.4, docs/limits.md 6). Every frame is checked: a size above
  # limits.max_frame_size is refused before any byte of the frame is buffered and the frame's bytes
  # are skipped as they arrive; a frame whose bytes arrive over several chunks is buffered as they
  # arrive (its declared size is never allocated ahead); each body is read under the limits (depth,
  # decode budget). A frame refused and skipped is a FrameError handed to #on_error when set (a
  # callable; receiving goes on), else raised by #receive, which keeps the bytes after the frame
  # for the next call (`receive` with nothing goes on at once). A lost stream (a size below the
  # minimum, the model notice) is raised always, and again by every #receive until #reset.
  # Not reentrant: feed it from one thread.
  class FrameReceiver
    FINAL = false
    # type id => [message class, handler method]: the package's dispatch table (generated).
    FBE_MESSAGES = {}.freeze

    attr_accessor :limits, :on_error
    attr_reader :received_messages, :receive_errors

    def initialize(limits: nil)
      @limits = limits || DEFAULT_LIMITS
      @on_error = nil
      @received_messages = 0
      @receive_errors = 0
      fbe_clear
    end

    # Whether the stream holds final-model frames (the bytes do not say, docs/format.md 7.1).
    def final?
      self.class::FINAL
    end

    # The bytes of an incomplete frame buffered.
    def pending_size
      @pending.bytesize
    end

    # The FrameError that lost the stream, or nil.
    def broken
      @lost
    end

    # Forgets a partial frame, a frame being skipped and a lost stream; offsets count from 0 again.
    def reset
      fbe_clear
    end

    # Feeds a chunk of the stream (a String): every frame it completes is delivered in order, the
    # start of an incomplete frame is buffered.
    def receive(data = nil)
      raise @lost if @lost

      fbe_take(data) unless data.nil? || data.empty?
      buf = @pending
      at = 0
      begin
        while buf.bytesize - at >= 4
          size = buf.unpack1('L<', offset: at)
          refused = fbe_refusal(size)
          if refused
            at += fbe_skip(size, buf.bytesize - at)
            fbe_report(refused)
            next
          end
          break if buf.bytesize - at < size

          frame = buf.byteslice(at, size)
          offset = @position
          at += size
          @position += size
          fbe_process(frame, offset)
        end
      ensure
        @pending = buf.byteslice(at..) unless at.zero?
      end
      nil
    end

    private

    def fbe_clear
      @pending = String.new(encoding: Encoding::BINARY)
      @skip = 0
      @position = 0
      @lost = nil
    end

    # Appends a chunk to the incomplete frame, after skipping what is left of a refused frame.
    def fbe_take(data)
      data = Fbe.binary(data)
      if @skip.positive?
        n = [@skip, data.bytesize].min
        @skip -= n
        @position += n
        return if n == data.bytesize

        data = data.byteslice(n..)
      end
      @pending << data
    end

    # Skips a refused frame of size bytes, have of them buffered; returns how many of those it skipped.
    def fbe_skip(size, have)
      n = [size, have].min
      @position += n
      @skip = size - n
      n
    end

    # The FrameError of a frame size below the minimum (the stream is lost: raised) or above
    # max_frame_size, else nil.
    def fbe_refusal(size)
      minimum = final? ? Protocol::MIN_FINAL_FRAME : Protocol::MIN_VERSIONED_FRAME
      if [Protocol::NOTICE_VERSIONED, Protocol::NOTICE_FINAL].include?(size)
        fbe_lose(FrameError.new(:model_notice, Protocol.model_notice_text(size, final?), @position, size))
      elsif size < minimum
        fbe_lose(FrameError.new(:too_small, "frame size #{size} is below the minimum #{minimum} of a frame; " \
                                            'the rest of the stream is dropped until reset', @position, size))
      elsif size > @limits.max_frame_size
        FrameError.new(:too_large, "frame size #{size} is above the maximum #{@limits.max_frame_size}; " \
                                   'the frame is skipped', @position, size)
      end
    end

    def fbe_lose(error)
      @lost = error
      @receive_errors += 1
      raise error
    end

    def fbe_report(error)
      @receive_errors += 1
      raise error if @on_error.nil?

      @on_error.call(error)
    end

    # Reads (or checks) one whole frame and hands it to its handler.
    def fbe_process(frame, offset)
      type_id = Protocol.frame_type(frame, final?, offset)
      cls, handler = self.class::FBE_MESSAGES[type_id]
      if cls.nil?
        raise FrameError.new(:unknown_type, "no message has type id #{type_id} (frame of #{frame.bytesize} " \
                                            'bytes skipped)', offset, frame.bytesize)
      end

      value = begin
        fbe_decode(cls, type_id, frame)
      rescue DecodeError => e
        raise FrameError.new(:invalid_body, "type id #{type_id}, frame of #{frame.bytesize} bytes skipped",
                             offset, frame.bytesize, e)
      end
      @received_messages += 1
      fbe_deliver(value, handler)
    rescue FrameError => e
      fbe_report(e)
    end
  end

  # Reads each frame's message and calls the generated handler `on_receive_<message>(value)`, whose
  # default calls #on_receive.
  #   class Handler < Proto::Receiver
  #     def on_receive_order_message(order) = puts(order)
  #   end
  #   Handler.new.receive(bytes)
  class Receiver < FrameReceiver
    # Called with every received message whose own handler was not overridden.
    def on_receive(value); end

    private

    def fbe_decode(cls, _type_id, frame)
      final? ? cls.from_final(frame, limits: @limits) : cls.from_fbe(frame, limits: @limits)
    end

    def fbe_deliver(value, handler)
      public_send(handler, value)
    end
  end

  # A frame a Proxy hands on: its message class (#type), #type_id and the frame's #bytes (a String
  # the receiver does not keep). #message reads it.
  Frame = Struct.new(:type, :type_id, :bytes) do
    def message(limits: nil)
      type.from_fbe(bytes, limits:)
    end
  end

  # Dispatches versioned frames without keeping their messages: each frame is checked (the read
  # under the limits, its value dropped) and handed as an Fbe::Frame to `on_proxy_<message>(frame)`,
  # whose default calls #on_proxy; a handler can forward `frame.bytes` unchanged (Sender#send_frame).
  class Proxy < FrameReceiver
    # Called with every frame whose own handler was not overridden.
    def on_proxy(frame); end

    private

    def fbe_decode(cls, type_id, frame)
      cls.from_fbe(frame, limits: @limits)
      Frame.new(cls, type_id, frame)
    end

    def fbe_deliver(frame, handler)
      public_send(handler, frame)
    end
  end

  # The answer of Client#request: #value waits for the response and returns it, or raises the
  # Fbe::RequestError of a reject, a timeout, a reset or a send that failed.
  class Request
    attr_reader :type, :name, :id, :expires_at

    def initialize(client, type, id, timeout)
      @client = client
      @type = type
      @name = type.name
      @id = id
      @timeout = timeout
      @expires_at = timeout.positive? ? Timestamp.utc + (timeout * 1_000_000) : nil
      @mutex = Mutex.new
      @done = ConditionVariable.new
      @finished = false
      @callbacks = []
    end

    # Whether the response (or the failure) came.
    def done?
      @mutex.synchronize { @finished }
    end

    # The response, waiting for it at most until the request's timeout (none: as long as it takes) or
    # `wait` seconds; raises the RequestError of its failure. After `wait` seconds without an answer
    # (the request still pending) it returns nil.
    def value(wait = nil)
      limit = wait && (Timestamp.utc + (wait * 1e9).to_i)
      @mutex.synchronize do
        until @finished
          deadline = [@expires_at, limit].compact.min
          break if deadline && Timestamp.utc >= deadline

          @done.wait(@mutex, deadline && ((deadline - Timestamp.utc) / 1e9))
        end
      end
      @client.watchdog unless done?
      @mutex.synchronize do
        raise @error if @error

        @result
      end
    end

    # Calls the block with (response, error) once the request is done (at once when it is).
    def on_done(&block)
      finished = @mutex.synchronize do
        @callbacks << block unless @finished
        @finished
      end
      block.call(@result, @error) if finished
      self
    end

    # Completes the request with its response (the Client does).
    def complete(response)
      finish(response, nil)
    end

    # Fails the request (the Client does).
    def fail(error)
      finish(nil, error)
    end

    # Whether the timeout has expired at now (nanoseconds since the epoch).
    def expired?(now)
      !@expires_at.nil? && @expires_at <= now
    end

    def timeout_error
      RequestError.new(@name, @id, :timeout, "Timeout! (no response within #{@timeout} ms)")
    end

    private

    def finish(result, error)
      callbacks = @mutex.synchronize do
        return if @finished

        @finished = true
        @result = result
        @error = error
        @done.broadcast
        @callbacks
      end
      callbacks.each { |c| c.call(result, error) }
    end
  end

  # Sender and Receiver with requests (docs/format.md 7.6): #request(value, timeout:) sends a
  # request and returns its Fbe::Request, completed by the response of the same id, failed by a
  # reject of that id (a global reject `*E` fails it whatever the request), by its timeout (#value
  # or #watchdog notices it), by #reset or by the other end's model notice. Messages no request
  # takes go to their handlers. Generated Clients fill FBE_REQUESTS (request class => [response
  # class or nil, reject classes]) and FBE_GLOBAL_REJECTS. Requests may be sent from any thread.
  class Client < Receiver
    include Sending

    FBE_REQUESTS = {}.freeze
    FBE_GLOBAL_REJECTS = Set.new.freeze

    def initialize(transport = nil, limits: nil)
      super(limits:)
      fbe_sending(transport)
      @requests = {}
      @lock = Mutex.new
    end

    # Sends a request; timeout in milliseconds (0: none). A request without response type is done
    # once sent.
    def request(value, timeout: 0)
      response, = self.class::FBE_REQUESTS.fetch(value.class) do
        raise ArgumentError, "#{value.class} is not a request of #{self.class}"
      end
      id = value.respond_to?(:id) ? value.id : nil
      pending = Request.new(self, value.class, id, timeout)
      old = response && @lock.synchronize do
        o = @requests[id]
        @requests[id] = pending
        o
      end
      old&.fail(RequestError.new(old.name, old.id, :duplicate, 'another request was sent with the same id'))
      fbe_send_request(value, pending)
      pending.complete(nil) if response.nil?
      pending
    end

    # The number of requests waiting for their response.
    def pending_requests
      @lock.synchronize { @requests.size }
    end

    # Fails every pending request whose timeout has expired at now (nanoseconds since the epoch).
    def watchdog(now = Timestamp.utc)
      expired = @lock.synchronize do
        gone = @requests.values.select { |p| p.expired?(now) }
        gone.each { |p| @requests.delete(p.id) }
      end
      expired.each { |p| p.fail(p.timeout_error) }
    end

    # Fails every pending request with why (the connection closed, say).
    def fail_pending(why)
      pending = @lock.synchronize do
        all = @requests.values
        @requests = {}
        all
      end
      pending.each { |p| p.fail(RequestError.new(p.name, p.id, :reset, why)) }
    end

    # Feeds a chunk of the stream; a lost stream (the other end's model notice) fails the pending
    # requests with its message too.
    def receive(data = nil)
      super
    rescue FrameError => e
      fail_pending(e.message) if e.lost?
      raise
    end

    # Fails every pending request and forgets buffered and queued bytes.
    def reset
      fail_pending('client reset before the response came')
      fbe_clear_queue
      super
    end

    private

    def fbe_send_request(value, pending)
      send_message(value)
    rescue StandardError => e
      @lock.synchronize { @requests.delete(value.id) if @requests[value.id].equal?(pending) }
      pending.fail(RequestError.new(pending.name, pending.id, :send, "not sent: #{e.message}"))
    end

    def fbe_deliver(value, handler)
      super unless fbe_answer(value)
    end

    # Completes or fails the pending request a response or reject answers; false when none does.
    def fbe_answer(value)
      return false if @requests.empty? || !value.respond_to?(:id)

      p = @lock.synchronize do
        entry = @requests[value.id]
        kind = entry && fbe_kind(entry, value)
        @requests.delete(value.id) if kind
        kind && [entry, kind]
      end
      return false unless p

      entry, kind = p
      if kind == :response
        entry.complete(value)
      else
        entry.fail(RequestError.new(entry.name, entry.id, :reject, "rejected by #{value}", value))
      end
      true
    end

    def fbe_kind(entry, value)
      response, rejects = self.class::FBE_REQUESTS[entry.type]
      return :response if value.instance_of?(response)

      :reject if rejects.include?(value.class) || self.class::FBE_GLOBAL_REJECTS.include?(value.class)
    end
  end
end
