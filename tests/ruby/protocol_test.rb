# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'everything')

# fbec --ruby --proto (docs/format.md 7): frames of schemas/tests/everything.fbe (its messages and
# market's, requests with a response, a reject and a global reject) through the generated Sender,
# Receiver, Proxy and Client and their final twins.
class ProtocolTest < Minitest::Test
  # A Receiver that records what it gets: messages, and the frames it refused.
  class Recorder < Everything::Receiver
    attr_reader :got

    def initialize(...)
      super
      @got = []
      self.on_error = ->(e) { @got << e }
    end

    def on_receive(value)
      @got << value
    end
  end

  # The same, of final frames.
  class FinalRecorder < Everything::FinalReceiver
    attr_reader :got

    def initialize(...)
      super
      @got = []
      self.on_error = ->(e) { @got << e }
    end

    def on_receive(value)
      @got << value
    end
  end

  def messages
    @messages ||= [Everything::Note.new(text: 'one'), Everything::Ping.new(sequence: 7),
                   Market::Failure.new(id: Fbe::Uuid.uuid4, reason: 'no'),
                   Everything::PlaceOrder.new(instrument: Market::Instrument.new(symbol: 'EURUSD'))]
  end

  def stream(sender_class = Everything::Sender)
    sender = sender_class.new
    messages.each { |m| sender.send_message(m) }
    assert_equal messages.size, sender.sent_messages
    sender.buffered
  end

  def test_whole_one_byte_and_random_chunks
    rng = Random.new(28)
    [[Everything::Sender, Recorder], [Everything::FinalSender, FinalRecorder]].each do |sender, receiver|
      data = stream(sender)
      [[data], data.chars, chunks(data, rng)].each do |parts|
        r = receiver.new
        parts.each { |part| r.receive(part) }
        assert_equal messages, r.got
        assert_equal 0, r.pending_size
      end
    end
  end

  def chunks(data, rng)
    out = []
    at = 0
    while at < data.bytesize
      n = rng.rand(1..40)
      out << data.byteslice(at, n)
      at += n
    end
    out
  end

  def test_handlers_by_message
    r = Class.new(Everything::Receiver) do
      attr_reader :notes, :others

      def on_receive_note(note) = (@notes ||= []) << note.text
      def on_receive(value) = (@others ||= []) << value.class
    end.new
    r.receive(stream)
    assert_equal ['one'], r.notes
    assert_equal [Everything::Ping, Market::Failure, Everything::PlaceOrder], r.others
  end

  def test_sender_refuses_a_value_that_is_no_message
    assert_raises(ArgumentError) { Everything::Sender.new.send_message(Market::Instrument.new) }
  end

  def test_sender_transport_callable_and_io
    frames = []
    Everything::Sender.new(->(f) { frames << f }).send_message(Everything::Ping.new(sequence: 1))
    io = StringIO.new(+'')
    Everything::Sender.new(io).send_message(Everything::Ping.new(sequence: 1))
    assert_equal [Everything::Ping.new(sequence: 1).to_fbe], frames
    assert_equal frames[0], io.string
  end

  def unknown_frame
    frame = Everything::Ping.new.to_fbe
    frame[12, 4] = [999].pack('L<') # the root body's type id
    frame
  end

  def test_unknown_type_is_reported_and_skipped
    r = Recorder.new
    r.receive(unknown_frame + Everything::Ping.new(sequence: 2).to_fbe)
    assert_kind_of Fbe::FrameError, r.got[0]
    assert_equal :unknown_type, r.got[0].kind
    assert_match 'no message has type id 999', r.got[0].message
    assert_equal Everything::Ping.new(sequence: 2), r.got[1]
  end

  def test_without_on_error_receive_raises_and_goes_on_after_the_frame
    r = Recorder.new
    r.on_error = nil
    error = assert_raises(Fbe::FrameError) { r.receive(unknown_frame + Everything::Ping.new(sequence: 2).to_fbe) }
    assert_equal :unknown_type, error.kind
    assert_empty r.got
    r.receive
    assert_equal [Everything::Ping.new(sequence: 2)], r.got
  end

  def test_a_body_that_does_not_decode_names_type_field_and_offset
    frame = Everything::Note.new(text: 'abc').to_fbe
    frame[-7, 4] = [1000].pack('L<') # the string's size, beyond the frame
    r = Recorder.new
    r.receive(frame)
    assert_equal :invalid_body, r.got[0].kind
    assert_kind_of Fbe::DecodeError, r.got[0].decode_error
    assert_match 'everything.Note.text', r.got[0].message
  end

  def test_too_large_frame_is_skipped_unbuffered
    r = Recorder.new(limits: Fbe::Limits.new(max_frame_size: 1024))
    r.receive([1 << 22].pack('L<'))
    assert_equal :too_large, r.got[0].kind
    ((1 << 20) / 4096).times { r.receive("\0" * 4096) }
    assert_equal 0, r.pending_size
    good = Everything::Ping.new(sequence: 3)
    r.receive(("\0" * ((1 << 22) - 4 - (1 << 20))) + good.to_fbe)
    assert_equal good, r.got[1]
  end

  def test_frame_below_the_minimum_loses_the_stream_until_reset
    r = Recorder.new
    error = assert_raises(Fbe::FrameError) { r.receive([5].pack('L<') + Everything::Ping.new.to_fbe) }
    assert_equal :too_small, error.kind
    assert_same error, r.broken
    assert_raises(Fbe::FrameError) { r.receive(Everything::Ping.new.to_fbe) }
    r.reset
    r.receive(Everything::Ping.new.to_fbe)
    assert_equal [Everything::Ping.new], r.got
  end

  def test_model_notice
    r = Recorder.new
    error = assert_raises(Fbe::FrameError) { r.receive(Fbe::Protocol.model_notice(true)) }
    assert_equal :model_notice, error.kind
    assert_match 'the other end reads final frames and refused ours: this end sends versioned frames', error.message
    f = FinalRecorder.new
    error = assert_raises(Fbe::FrameError) { f.receive(Fbe::Protocol.model_notice(true)) }
    assert_match 'the other end (reading final frames too) refused a frame of ours', error.message
  end

  def test_proxy_hands_frames_to_forward
    forwarded = Everything::Sender.new
    proxy = Class.new(Everything::Proxy) do
      attr_accessor :out, :notes

      def on_proxy_note(frame)
        (@notes ||= []) << frame.message.text
        on_proxy(frame)
      end

      def on_proxy(frame) = out.send_frame(frame.bytes)
    end.new
    proxy.out = forwarded
    proxy.receive(stream)
    assert_equal ['one'], proxy.notes
    assert_equal stream, forwarded.buffered
  end

  # A server answering PlaceOrder with Accepted, or Rejected / market.Failure when the symbol says so.
  module Answering
    def connect(client)
      @out = (final? ? Everything::FinalSender : Everything::Sender).new(->(frame) { client.receive(frame) })
    end

    def on_receive_place_order(order)
      id = order.id
      case order.instrument.symbol
      when 'REJECT' then @out.send_message(Everything::Rejected.new(id:, reason: 'closed'))
      when 'FAIL' then @out.send_message(Market::Failure.new(id:, reason: 'down'))
      when 'SILENT' then nil
      else @out.send_message(Everything::Accepted.new(id:))
      end
    end
  end

  # The server of versioned frames.
  class Server < Everything::Receiver
    include Answering
  end

  # The server of final frames.
  class FinalServer < Everything::FinalReceiver
    include Answering
  end

  def connected(client_class = Everything::Client)
    client = client_class.new
    server = (client.final? ? FinalServer : Server).new
    server.connect(client)
    client.transport = ->(frame) { server.receive(frame) }
    client
  end

  def order(symbol)
    Everything::PlaceOrder.new(instrument: Market::Instrument.new(symbol:))
  end

  def test_request_response
    [Everything::Client, Everything::FinalClient].each do |cls|
      client = connected(cls)
      request = order('EURUSD')
      assert_equal Everything::Accepted.new(id: request.id), client.request(request, timeout: 1000).value
      assert_equal 0, client.pending_requests
    end
  end

  def test_reject_and_global_reject
    client = connected
    error = assert_raises(Fbe::RequestError) { client.request(order('REJECT')).value }
    assert_equal :reject, error.failure
    assert_equal 'closed', error.value.reason
    error = assert_raises(Fbe::RequestError) { client.request(order('FAIL')).value }
    assert_kind_of Market::Failure, error.value
  end

  def test_request_without_response_is_done_once_sent
    client = connected
    request = client.request(Everything::Ping.new(sequence: 1))
    assert request.done?
    assert_nil request.value
  end

  def test_timeout
    client = connected
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    error = assert_raises(Fbe::RequestError) { client.request(order('SILENT'), timeout: 50).value }
    assert_equal :timeout, error.failure
    assert_match 'Timeout!', error.message
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.045
    assert_equal 0, client.pending_requests
  end

  def test_watchdog_and_reset
    client = connected
    late = client.request(order('SILENT'), timeout: 10)
    forever = client.request(order('SILENT'))
    client.watchdog(Fbe::Timestamp.utc + 20_000_000)
    assert late.done?
    refute forever.done?
    assert_equal :timeout, assert_raises(Fbe::RequestError) { late.value }.failure
    client.reset
    assert_equal :reset, assert_raises(Fbe::RequestError) { forever.value }.failure
  end

  def test_value_from_another_thread
    client = Everything::Client.new
    request = order('X')
    pending = client.request(request, timeout: 5000)
    waiter = Thread.new { pending.value }
    sleep 0.01
    client.receive(Everything::Accepted.new(id: request.id).to_fbe)
    assert_equal Everything::Accepted.new(id: request.id), waiter.value
  end

  def test_unanswered_messages_go_to_the_handlers
    client = Class.new(Everything::Client) do
      attr_reader :notes

      def on_receive_note(note) = (@notes ||= []) << note.text
    end.new
    client.receive(Everything::Note.new(text: 'hello').to_fbe + Everything::Accepted.new.to_fbe)
    assert_equal ['hello'], client.notes
  end

  def test_model_notice_fails_pending_requests
    client = Everything::Client.new
    pending = client.request(order('X'))
    assert_raises(Fbe::FrameError) { client.receive(Fbe::Protocol.model_notice(true)) }
    error = assert_raises(Fbe::RequestError) { pending.value }
    assert_match 'the other end reads final frames', error.message
  end
end
