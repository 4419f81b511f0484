# A Ruby test against scanctl: minitest, net/http and OpenSSL's HMAC. Run: ruby scanctl_test.rb
#
# Reaches the emulator named by the environment contract (SCANCTL_BASE_URL and the keys: set by
# `scanctl exec`, the CI action or compose), or starts one (`scanctl serve --json`) when it is not
# set; waits on its health route; mints a session; plays a scan with `scanctl scan simulate`; and
# checks that the webhook arrived signed, with Ruby's own HMAC.
require "json"
require "minitest/autorun"
require "net/http"
require "open3"
require "openssl"
require "shellwords"
require "socket"

# How to run scanctl's CLI (it plays the phone: `scan simulate`).
SCANCTL = Shellwords.split(ENV.fetch("SCANCTL_COMMAND", "node_modules/.bin/scanctl"))
CONTRACT = %w[SCANCTL_BASE_URL SCANCTL_APP_ID SCANCTL_SECRET_KEY SCANCTL_PUBLISHABLE_KEY SCANCTL_WEBHOOK_SECRET].freeze

# Service-Signature: hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret.
def verify(body, signature, secret)
  expected = OpenSSL::HMAC.hexdigest("SHA256", secret, body)
  !signature.nil? && signature.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(expected, signature)
end

# The contract's variables, from the environment or from a serve started now.
def start_or_reach
  return [ENV.to_h.slice(*CONTRACT), nil] if ENV["SCANCTL_BASE_URL"]
  stdin, stdout, serve = Open3.popen2(*SCANCTL, "serve", "--port", "0", "--json", "--db", ":memory:")
  stdin.close
  [JSON.parse(stdout.gets)["env"], serve]
end

# GET /_scanctl/health until it answers 200 (503 while starting; refused before the port opens).
def wait_until_ready(base_url, timeout: 30)
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

# Your backend's webhook endpoint, in miniature (a plain socket: Ruby 3 has no HTTP server in its standard library).
class Receiver
  attr_reader :events, :url

  def initialize(secret)
    @server = TCPServer.new("127.0.0.1", 0)
    @url = "http://127.0.0.1:#{@server.addr[1]}/webhooks"
    @events = Queue.new
    @thread = Thread.new { loop { handle(@server.accept, secret) } }
  end

  def handle(client, secret)
    client.gets # the request line
    headers = {}
    while (line = client.gets) && line != "\r\n"
      name, value = line.split(":", 2)
      headers[name.downcase] = value.strip
    end
    body = client.read(headers["content-length"].to_i)
    valid = verify(body, headers["service-signature"], secret)
    @events << JSON.parse(body) if valid
    client.write("HTTP/1.1 #{valid ? '204 No Content' : '400 Bad Request'}\r\nConnection: close\r\n\r\n")
    client.close
  end

  def close
    @thread.kill
    @server.close
  end
end

class ScanctlTest < Minitest::Test
  ENVIRONMENT, SERVE = start_or_reach
  wait_until_ready(ENVIRONMENT["SCANCTL_BASE_URL"])
  Minitest.after_run { if SERVE then Process.kill("TERM", SERVE.pid); SERVE.value end }

  def scanctl(*args)
    out, err, status = Open3.capture3(ENVIRONMENT, *SCANCTL, *args)
    raise "scanctl #{args.join(' ')} exited #{status.exitstatus}: #{err}" unless status.success?
    out
  end

  def test_mints_a_session_with_the_test_secret_key
    uri = URI("#{ENVIRONMENT['SCANCTL_BASE_URL']}/v1/sessions")
    answer = Net::HTTP.post(uri, { host_user_ref: "member_rb" }.to_json,
                            "Authorization" => "Bearer #{ENVIRONMENT['SCANCTL_SECRET_KEY']}", "Content-Type" => "application/json")
    assert_equal "201", answer.code
    assert JSON.parse(answer.body)["session_token"].start_with?("vst_")
  end

  def test_a_simulated_scan_sends_a_signed_webhook
    receiver = Receiver.new(ENVIRONMENT["SCANCTL_WEBHOOK_SECRET"])
    scanctl("app", "update", "--webhook-url", receiver.url)
    scan_id = JSON.parse(scanctl("scan", "simulate", "--user", "member_rb", "--wait", "--json").lines.first)["scan_id"]
    events = Array.new(receiver.events.size) { receiver.events.pop }
    assert_equal ["scan.completed"], events.select { |e| e["data"]["scan_id"] == scan_id }.map { |e| e["type"] }
  ensure
    receiver&.close
  end

  def test_a_changed_body_fails_the_signature_check
    secret = ENVIRONMENT["SCANCTL_WEBHOOK_SECRET"]
    signature = OpenSSL::HMAC.hexdigest("SHA256", secret, '{"id":"evt_1"}')
    assert verify('{"id":"evt_1"}', signature, secret)
    refute verify('{"id":"evt_2"}', signature, secret)
  end
end
