# frozen_string_literal: true

# The Ruby TCP example: the rpc protocol of ../cpp/tcp/rpc.fbe over the standard library's sockets.
#
#   ruby tcp_example.rb                       # a server on a free port and a client, both models
#   ruby tcp_example.rb serve [--port 5000] [--final] [--max-connections 256] [--max-frame-size 1048576]
#       [--idle-timeout 60] [--frame-timeout 10] [--send-queue-limit 1048576]
#   ruby tcp_example.rb connect 127.0.0.1:5000 [--final] [--messages 100]
#
# It loads the runtime gem fbe and the code `fbec --ruby --final --proto --input=../cpp/tcp/rpc.fbe`
# writes (`make example-ruby` writes it to build/examples/ruby/gen; FBE_EXAMPLE_GEN names another
# folder). The server is one thread around IO.select with non-blocking sockets and follows the policy
# of every language's example (docs/tcp-examples.md): whatever a client sends, sends slowly or fails
# to read costs the server a bounded amount and ends, at worst, that client's own connection:
#
#   - buffer without bound: while more than send_queue_limit reply bytes wait for a client, the
#     server stops reading it (its own sends stall);
#   - allocate what was not sent: a partial frame holds only the bytes received (the generated
#     Receiver buffers them as they arrive), and a frame size above max_frame_size drops the client
#     before any byte of the frame is kept;
#   - hold a connection forever: idle_timeout without a byte read or written closes it;
#   - hold a slot by sending slowly: a frame must be whole frame_timeout after its first byte (the
#     first frame: after the accept), or the connection is closed;
#   - exhaust it with connections: at max_connections a new connection takes the slot of the one
#     that has waited longest for a frame to complete; when every open one is between frames, the
#     new one is closed at once (one message per episode).
#
# A bad frame drops the client with one message, after the model notice (docs/format.md 7.4) when
# the frame makes no sense in the server's model; so does an exception of a handler.

require 'optparse'
require 'socket'
require 'fbe'
require File.join(ENV.fetch('FBE_EXAMPLE_GEN', File.expand_path('../../build/examples/ruby/gen', __dir__)), 'rpc')

# The example's server and client.
module TcpExample
  Config = Struct.new(:port, :final, :max_connections, :max_frame_size, :send_queue_limit, :idle_timeout,
                      :frame_timeout, :messages, keyword_init: true)
  DEFAULTS = { port: 5000, final: false, max_connections: 256, max_frame_size: 1 << 20, send_queue_limit: 1 << 20,
               idle_timeout: 60.0, frame_timeout: 10.0, messages: 100 }.freeze

  Stats = Struct.new(:sessions, :refused, :evicted, :requests, :dropped)

  # Frames of these kinds make no sense in the server's model: the client hears the model notice.
  NOTICE_KINDS = %i[too_small bad_header unknown_type].freeze

  def self.now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  def self.log(message)
    warn(message)
    $stderr.flush
  end

  # Ends one connection with its message; notice: the client's frame made no sense in this
  # server's model, and the model notice tells the client so.
  class Drop < StandardError
    attr_reader :notice

    def initialize(why, notice: false)
      super(why)
      @notice = notice
    end
  end

  # Answers Ping with Pong, PlaceOrder with OrderAccepted (OrderRejected when its quantity is not
  # positive or its symbol empty), Notice with a Heartbeat; any other message drops the client.
  module Answering
    attr_accessor :out, :stats, :orders

    def on_receive_ping(ping)
      stats.requests += 1
      out.send_message(Rpc::Pong.new(id: ping.id, sequence: ping.sequence, payload: ping.payload))
    end

    def on_receive_place_order(order)
      stats.requests += 1
      if order.quantity.positive? && !order.symbol.empty?
        self.orders = (orders || 0) + 1
        out.send_message(Rpc::OrderAccepted.new(id: order.id, order: orders, price: order.price,
                                                quantity: order.quantity))
      else
        reason = order.symbol.empty? ? 'no symbol' : "quantity #{order.quantity} is not positive"
        out.send_message(Rpc::OrderRejected.new(id: order.id, reason:))
      end
    end

    def on_receive_notice(_notice)
      stats.requests += 1
      out.send_message(Rpc::Heartbeat.new(time: Fbe::Timestamp.utc))
    end

    def on_receive(value)
      raise Drop, "a client does not send #{value.class.name.split('::').last}"
    end
  end

  # The generated Receiver answering requests.
  class Receiving < Rpc::Receiver
    include Answering
  end

  # The same, of final frames.
  class FinalReceiving < Rpc::FinalReceiver
    include Answering
  end

  # One client: what arrives goes to the generated Receiver (which keeps only the bytes of a partial
  # frame), the replies of the generated Sender queue in #out until the socket takes them.
  class Connection
    attr_reader :io, :peer, :waiting_since

    def initialize(server, io)
      @server = server
      @config = server.config
      @io = io
      address = io.remote_address
      @peer = "#{address.ip_address}:#{address.ip_port}"
      @out = String.new(encoding: Encoding::BINARY)
      @receiver = (@config.final ? FinalReceiving : Receiving).new(
        limits: Fbe::Limits.new(max_frame_size: @config.max_frame_size)
      )
      @receiver.out = (@config.final ? Rpc::FinalSender : Rpc::Sender).new(->(frame) { @out << frame })
      @receiver.stats = server.stats
      @waiting_since = @last_activity = TcpExample.now # a frame is due (the first: from the accept); nil between frames
      @framed = false
      @dropped = false
      @closed = false
      @linger_until = nil
    end

    # Read it: not while more than send_queue_limit reply bytes wait for the client (backpressure).
    def reading?
      !@closed && (@dropped || @out.bytesize <= @config.send_queue_limit)
    end

    def writing?
      !@closed && !@out.empty?
    end

    def closed?
      @closed
    end

    def readable
      data = @io.read_nonblock(1 << 16, exception: false)
      return if data == :wait_readable
      return close if data.nil? # the client closed (after the model notice too)
      return if @dropped # after the model notice: read and dropped until the client closes

      receive(data)
      flush
    rescue SystemCallError, IOError
      close
    end

    def receive(data)
      t = @last_activity = TcpExample.now
      @waiting_since ||= t # the first byte of the next frame
      before = @receiver.received_messages
      begin
        @receiver.receive(data)
      rescue Fbe::FrameError => e
        raise Drop.new(frame_error(e), notice: NOTICE_KINDS.include?(e.kind))
      end
      return if @receiver.received_messages == before

      @framed = true
      @waiting_since = @receiver.pending_size.positive? ? t : nil
    rescue Drop => e
      drop(e.message, notice: e.notice)
    rescue StandardError => e # a handler's exception ends this connection only
      drop("#{e.class}: #{e.message}")
    end

    def frame_error(error)
      case error.kind
      when :too_large
        "frame too large: a frame of #{error.size} bytes is above the maximum #{@config.max_frame_size}"
      when :too_small
        "frame too small: a frame of #{error.size} bytes is below the minimum " \
        "#{@config.final ? Fbe::Protocol::MIN_FINAL_FRAME : Fbe::Protocol::MIN_VERSIONED_FRAME}#{hint}"
      when :bad_header, :unknown_type then "#{error.message}#{hint}"
      else error.message
      end
    end

    # The likely cause of frames that make no sense: the two ends disagree on --final.
    def hint
      if @config.final
        ' (this server reads final-model frames: was the client started without --final?)'
      else
        ' (this server reads versioned frames: was the client started with --final?)'
      end
    end

    def flush
      until @out.empty?
        n = @io.write_nonblock(@out, exception: false)
        break if n == :wait_writable

        @out = @out.byteslice(n..)
        @last_activity = TcpExample.now
      end
    rescue SystemCallError, IOError
      close
    end

    def drop(why, notice: false)
      return if @dropped

      @dropped = true
      @server.stats.dropped += 1
      TcpExample.log("server: #{@peer}: dropping the connection: #{why}")
      return close unless notice

      # Closing with the client's bytes unread would reset the connection and the client would lose
      # the notice: what arrives is read and dropped until the client closes (1 s at most).
      @out << Fbe::Protocol.model_notice(@config.final)
      @linger_until = TcpExample.now + 1.0
      flush
    end

    def close
      return if @closed

      @closed = true
      @io.close
      @server.forget(self)
    end

    # When #check has something to do next.
    def deadline
      return @linger_until if @linger_until

      idle = @config.idle_timeout.positive? && (@last_activity + @config.idle_timeout)
      frame = @config.frame_timeout.positive? && @waiting_since && (@waiting_since + @config.frame_timeout)
      [idle, frame].select { |t| t }.min
    end

    # The frame and idle timeouts, and the end of the wait after a model notice.
    def check(time)
      return close if @linger_until && time >= @linger_until
      return if @dropped

      frame_timeout = @config.frame_timeout
      if frame_timeout.positive? && @waiting_since && time - @waiting_since >= frame_timeout
        after = @framed ? 'its first byte' : 'the connection opened'
        return drop(format('frame timeout: no whole frame %<s>g s after %<after>s', s: frame_timeout, after:))
      end
      idle = @config.idle_timeout
      return unless idle.positive? && time - @last_activity >= idle

      if @out.empty?
        drop(format('idle for %<s>g s (nothing read or written)', s: idle))
      else
        drop(format('does not read its replies (%<n>d bytes waiting for %<s>g s)', n: @out.bytesize, s: idle))
      end
    end

    # Closed without a message of its own: a new connection took its slot.
    def evict
      @dropped = true
      close
    end
  end

  # The rpc server: connections admitted under max_connections, evicting the slowest.
  class Server
    attr_reader :config, :stats, :port

    def initialize(config)
      @config = config
      @stats = Stats.new(0, 0, 0, 0, 0)
      @connections = {}
      # One message per episode at max_connections, not one per connection: an episode ends when
      # fewer than three quarters of max_connections are open.
      @evicting = false
      @refusing = false
      @listener = TCPServer.new('127.0.0.1', config.port)
      @port = @listener.local_address.ip_port
      @wake, @waker = IO.pipe
    end

    # Ends #run (from a signal handler or another thread).
    def stop
      @waker.write_nonblock('.', exception: false)
    end

    def run
      loop do
        live = @connections.values
        readers = [@listener, @wake] + live.select(&:reading?).map(&:io)
        writers = live.select(&:writing?).map(&:io)
        ready = IO.select(readers, writers, nil, wait(live))
        break if ready && ready[0].include?(@wake)

        serve(ready[0], ready[1]) if ready
        t = TcpExample.now
        @connections.values.select { |c| c.deadline&.<=(t) }.each { |c| c.check(t) }
      end
      @listener.close
      open = @connections.values
      open.each(&:close)
      @stats
    end

    def forget(connection)
      @connections.delete(connection.io)
    end

    private

    def wait(live)
      next_deadline = live.filter_map(&:deadline).min
      next_deadline ? (next_deadline - TcpExample.now).clamp(0, 1.0) : 1.0
    end

    def serve(readable, writable)
      readable.each do |io|
        next accept if io.equal?(@listener)

        @connections[io]&.readable
      end
      writable.each { |io| @connections[io]&.flush }
    end

    def accept
      loop do
        io = @listener.accept_nonblock(exception: false)
        return if io == :wait_readable

        connection = Connection.new(self, io)
        admit(connection) ? @connections[io] = connection : io.close
      end
    end

    def admit(_connection)
      cap = @config.max_connections
      evict if @connections.size >= cap
      if @connections.size >= cap
        @stats.refused += 1
        unless @refusing
          TcpExample.log("server: #{@connections.size} connections open (max_connections), each between frames: " \
                         'closing new ones until one ends')
        end
        @refusing = true
        return false
      end
      @evicting = @refusing = false if @connections.size < cap - (cap / 4) # the episode is over
      @stats.sessions += 1
      true
    end

    # The connection that has waited longest for a frame gives its slot to a new one.
    def evict
      victim = @connections.values.select(&:waiting_since).min_by(&:waiting_since)
      return unless victim

      @stats.evicted += 1
      unless @evicting
        TcpExample.log("server: #{@connections.size} connections open (max_connections): " \
                       'a new one evicts the one waiting longest for a frame')
      end
      @evicting = true
      victim.evict
    end
  end

  # The generated Client over a socket: a thread feeds what arrives to it, the main thread sends.
  class Replies
    attr_reader :client

    def initialize(socket, final)
      @heartbeats = 0
      @lock = Mutex.new
      @beat = ConditionVariable.new
      replies = self
      @client = Class.new(final ? Rpc::FinalClient : Rpc::Client) do
        define_method(:on_receive_heartbeat) { |_heartbeat| replies.heartbeat }
      end.new(socket)
      @reader = Thread.new { pump(socket) }
    end

    def heartbeat
      @lock.synchronize do
        @heartbeats += 1
        @beat.broadcast
      end
    end

    # Waits for a Heartbeat (seconds at most); their count.
    def heartbeats(seconds)
      @lock.synchronize do
        @beat.wait(@lock, seconds) if @heartbeats.zero?
        @heartbeats
      end
    end

    def join
      @reader.join
    end

    private

    def pump(socket)
      loop { @client.receive(socket.readpartial(1 << 16)) }
    rescue IOError, SystemCallError # EOFError: the server closed
      @client.fail_pending('the other end closed the connection before the response came')
    rescue Fbe::Error => e # a bad frame of the server (its model notice: the Client failed the requests with it)
      @client.fail_pending(e.message)
    end
  end

  # Pings (all in flight at once, every Pong checked), an order accepted, one rejected, a Notice.
  def self.run_client(host, port, final, messages)
    socket = TCPSocket.new(host, port)
    replies = Replies.new(socket, final)
    seconds = pings(replies.client, messages)
    accepted, rejected = orders(replies.client)
    replies.client.request(Rpc::Notice.new(text: 'hello'), timeout: 10_000).value
    heartbeats = replies.heartbeats(10)
    socket.close
    replies.join
    format('%<model>s: %<n>d pings in %<ms>.1f ms (%<rate>.0f/s), order %<order>d accepted at %<price>s, ' \
           'one rejected (%<rejected>s), %<beats>d heartbeat',
           model: final ? 'final' : 'versioned', n: messages, ms: seconds * 1000, rate: messages / seconds,
           order: accepted.order, price: accepted.price, rejected:, beats: heartbeats)
  end

  # Seconds until every Pong came.
  def self.pings(client, messages)
    started = now
    requests = Array.new(messages) do |i|
      client.request(Rpc::Ping.new(sequence: i, payload: "ping #{i}"), timeout: 10_000)
    end
    requests.each_with_index do |request, i|
      pong = request.value
      raise Fbe::Error, "Pong #{pong.sequence} for Ping #{i}" unless pong.sequence == i
    end
    now - started
  end

  # The order accepted and why the other was rejected.
  def self.orders(client)
    order = Rpc::PlaceOrder.new(symbol: 'EURUSD', side: Rpc::Side::BUY, price: 1.0845, quantity: 1000.0)
    [client.request(order, timeout: 10_000).value, rejection(client)]
  end

  def self.rejection(client)
    order = Rpc::PlaceOrder.new(symbol: 'EURUSD', side: Rpc::Side::SELL, price: 1.0845, quantity: 0.0)
    client.request(order, timeout: 10_000).value
    'not rejected'
  rescue Fbe::RequestError => e
    raise unless e.failure == :reject

    e.value.reason
  end

  def self.serve(config)
    server = Server.new(config)
    puts "listening on 127.0.0.1:#{server.port}#{' (final-model frames)' if config.final}"
    $stdout.flush
    %w[TERM INT].each { |signal| trap(signal) { server.stop } }
    s = server.run
    puts "server: #{s.sessions} session(s), #{s.refused} refused over max_connections, #{s.evicted} evicted, " \
         "#{s.requests} requests, bye"
  end

  def self.both_models(messages)
    [false, true].each do |final|
      server = Server.new(Config.new(**DEFAULTS, port: 0, final:))
      thread = Thread.new { server.run }
      puts run_client('127.0.0.1', server.port, final, messages)
      server.stop
      thread.join
    end
  end

  def self.options(argv)
    config = Config.new(**DEFAULTS)
    OptionParser.new do |o|
      o.banner = 'usage: tcp_example.rb [serve | connect HOST:PORT] [options]'
      o.on('--final', 'final-model frames (both ends must use them)') { config.final = true }
      o.on('--port N', Integer) { |v| config.port = v }
      o.on('--messages N', Integer) { |v| config.messages = v }
      o.on('--max-connections N', Integer) { |v| config.max_connections = v }
      o.on('--max-frame-size BYTES', Integer) { |v| config.max_frame_size = v }
      o.on('--send-queue-limit BYTES', Integer) { |v| config.send_queue_limit = v }
      o.on('--idle-timeout SECONDS', Float) { |v| config.idle_timeout = v }
      o.on('--frame-timeout SECONDS', Float) { |v| config.frame_timeout = v }
    end.parse!(argv)
    config
  end

  def self.main(argv)
    config = options(argv)
    case argv[0]
    when 'serve' then serve(config)
    when 'connect'
      host, _, port = (argv[1] || '127.0.0.1:5000').rpartition(':')
      begin
        puts run_client(host, Integer(port), config.final, config.messages)
      rescue Fbe::Error, SystemCallError => e
        warn "client: #{e.message}"
        return 1
      end
    else both_models(config.messages)
    end
    0
  end
end

exit(TcpExample.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
