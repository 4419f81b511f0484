require "socket"
require "stringio"

module Scanctl
  # Your own Rack app (Rails.application, a Sinatra app, any #call(env) returning [status, headers,
  # body]) on a free loopback port, each request in its own thread: the receiver of the emulator's
  # webhooks. HTTP/1.1 with Content-Length, one request per connection: enough for a test, not a
  # production server.
  class Server
    REASONS = { 200 => "OK", 201 => "Created", 204 => "No Content", 400 => "Bad Request", 404 => "Not Found",
                500 => "Internal Server Error" }.freeze

    attr_reader :url

    def initialize(app, host: "127.0.0.1")
      @app = app
      @server = TCPServer.new(host, 0)
      @url = "http://#{host}:#{@server.addr[1]}"
      @thread = Thread.new { accept_loop }
    end

    def stop
      @server.close unless @server.closed?
      @thread.join(5)
    end

    private

    def accept_loop
      loop do
        client = @server.accept
        Thread.new(client) { |socket| answer(socket) }
      end
    rescue IOError, SystemCallError
      nil # closed by stop
    end

    def answer(socket)
      line = socket.gets or return
      method, target, = line.split(" ", 3)
      path, query = target.to_s.split("?", 2)
      env = { "REQUEST_METHOD" => method, "PATH_INFO" => path, "QUERY_STRING" => query.to_s, "SCRIPT_NAME" => "",
              "SERVER_NAME" => "127.0.0.1", "SERVER_PORT" => @server.addr[1].to_s, "rack.url_scheme" => "http" }
      while (header = socket.gets) && header != "\r\n"
        name, value = header.split(":", 2)
        key = name.strip.upcase.tr("-", "_")
        key = "HTTP_#{key}" unless %w[CONTENT_TYPE CONTENT_LENGTH].include?(key)
        env[key] = value.to_s.strip
      end
      body = socket.read(env["CONTENT_LENGTH"].to_i) || ""
      env["rack.input"] = StringIO.new(body.b)
      status, headers, parts = @app.call(env)
      content = +""
      parts.each { |part| content << part.to_s }
      parts.close if parts.respond_to?(:close)
      head = ["HTTP/1.1 #{status} #{REASONS.fetch(status.to_i, 'Status')}", "content-length: #{content.bytesize}", "connection: close"]
      headers.each { |name, value| head << "#{name}: #{value}" unless %w[content-length connection].include?(name.to_s.downcase) }
      socket.write("#{head.join("\r\n")}\r\n\r\n", content)
    rescue StandardError => e
      socket.write("HTTP/1.1 500 Internal Server Error\r\ncontent-length: #{e.message.bytesize}\r\nconnection: close\r\n\r\n#{e.message}") rescue nil
    ensure
      socket.close
    end
  end

  # Serves app (see Server) for the block's length; yields its URL (http://127.0.0.1:PORT). Without
  # a block, returns the Server (its #url; #stop it).
  def self.serve(app, host: "127.0.0.1")
    server = Server.new(app, host: host)
    return server unless block_given?

    begin
      yield server.url
    ensure
      server.stop
    end
  end
end
