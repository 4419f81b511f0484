# The harness of the Ruby recipe: one emulator for the whole run, a webhook receiver, and the
# emulator's state restored to a checkpoint after each test.
#
# The emulator is the real binary node_modules/.bin/scanctl (npm ci installs it from vendor/),
# started in its own process group and stopped whole at the end. With SCANCTL_BASE_URL set
# (scanctl exec, the CI action, compose), that emulator is used instead and nothing is started.
require "json"
require "minitest/autorun"
require "net/http"
require "open3"
require "shellwords"
require "socket"
require_relative "verify"

# How to run scanctl's CLI: the real binary npm ci installed (or SCANCTL_COMMAND, e.g. "docker compose exec -T scanctl scanctl").
SCANCTL = Shellwords.split(ENV.fetch("SCANCTL_COMMAND", File.join(__dir__, "node_modules/.bin/scanctl")))
CONTRACT = %w[SCANCTL_BASE_URL SCANCTL_APP_ID SCANCTL_SECRET_KEY SCANCTL_PUBLISHABLE_KEY SCANCTL_WEBHOOK_SECRET].freeze

# The emulator's environment contract, and its CLI run against it.
class Scanctl
  attr_reader :env

  def initialize(env)
    @env = env
  end

  def base_url = env["SCANCTL_BASE_URL"]

  def run(*args)
    out, err, status = Open3.capture3(env, *SCANCTL, *args)
    raise "scanctl #{args.join(' ')} exited #{status.exitstatus}: #{err}" unless status.success?
    out
  end

  # A --json command's answer: its one object, or the last of its lines (a stream's result).
  def json(*args)
    out = run(*args, "--json").strip
    JSON.parse(out)
  rescue JSON::ParserError
    JSON.parse(out.lines.last)
  end

  # GET /_scanctl/health until it answers 200 (503 while starting; refused before the port opens).
  def wait_until_ready(timeout: 30)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    loop do
      begin
        return if Net::HTTP.get_response(URI("#{base_url}/_scanctl/health")).code == "200"
      rescue SystemCallError
        # Not listening yet.
      end
      raise "scanctl at #{base_url} not ready after #{timeout} s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      sleep 0.1
    end
  end

  # Starts `scanctl serve` in its own process group (stopped whole when the run ends), or reaches
  # the one the environment names.
  def self.start_or_reach
    return new(ENV.to_h.slice(*CONTRACT)) if ENV["SCANCTL_BASE_URL"]
    reader, writer = IO.pipe
    pid = Process.spawn(*SCANCTL, "serve", "--port", "0", "--json", "--db", ":memory:", out: writer, pgroup: true)
    writer.close
    Minitest.after_run do
      Process.kill("TERM", -pid)
      # SIGKILL to the group if it has not ended within 10 s.
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
      until (ended = Process.wait(pid, Process::WNOHANG))
        break if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        sleep 0.1
      end
      unless ended
        Process.kill("KILL", -pid)
        Process.wait(pid)
      end
      reader.close
    end
    ready = JSON.parse(reader.gets) # serve --json: one ready line, nothing before it
    Thread.new { reader.read rescue nil } # keep its output flowing
    new(ready["env"])
  end
end

# Your backend's webhook endpoint, in miniature (a plain socket: Ruby 3 has no HTTP server in its
# standard library). It verifies before it parses, fails each event's first attempt (HTTP 500)
# and acknowledges the second (204), so every test plays a retry.
class Receiver
  attr_reader :url

  def initialize(secret)
    @secret = secret
    @server = TCPServer.new("127.0.0.1", 0)
    @url = "http://127.0.0.1:#{@server.addr[1]}/webhooks"
    @deliveries = []
    @lock = Mutex.new
    @thread = Thread.new { loop { handle(@server.accept) } }
  end

  def deliveries = @lock.synchronize { @deliveries.dup }
  def clear = @lock.synchronize { @deliveries.clear }

  def handle(client)
    client.gets # the request line
    headers = {}
    while (line = client.gets) && line != "\r\n"
      name, value = line.split(":", 2)
      headers[name.downcase] = value.strip
    end
    body = client.read(headers["content-length"].to_i)
    verified = verify(body, headers["service-signature"], @secret)
    event_id = headers["service-event-id"]
    first = @lock.synchronize do
      seen = @deliveries.none? { |d| d[:event_id] == event_id }
      @deliveries << { event_id: event_id, verified: verified, event: verified ? JSON.parse(body) : nil }
      seen
    end
    status = !verified ? "400 Bad Request" : first ? "500 Internal Server Error" : "204 No Content"
    client.write("HTTP/1.1 #{status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
  ensure
    client.close
  end
end

SCANCTL_EMULATOR = Scanctl.start_or_reach
SCANCTL_EMULATOR.wait_until_ready
RECEIVER = Receiver.new(SCANCTL_EMULATOR.env["SCANCTL_WEBHOOK_SECRET"])
# The suite's setup, done once, then checkpointed: the state each test starts from.
SCANCTL_EMULATOR.run("app", "update", "--webhook-url", RECEIVER.url)
CHECKPOINT = SCANCTL_EMULATOR.json("state", "checkpoint", "minitest-setup")["id"]

# Include in a test class: after each test, the whole emulator state (clock and pending
# deliveries too) goes back to the checkpoint.
module RestoredAfterEachTest
  def scanctl = SCANCTL_EMULATOR
  def receiver = RECEIVER

  def teardown
    scanctl.run("state", "restore", CHECKPOINT)
    receiver.clear
    super
  end
end
