# The library's own tests. Run: ruby test/test_library.rb with the gem installed (or ruby -Ilib ...)
require "fileutils"
require "minitest/autorun"
require "json"
require "net/http"
require "open3"
require "rbconfig"
require "tmpdir"
require "scanctl"
require "scanctl/minitest"

# A team's own Rack app behind the emulator's webhook URL: it mints through the service (the
# backend's job) and takes webhooks, verified first, the first attempt of each event failed (500),
# the second acknowledged (204).
class TeamApp
  attr_reader :received

  def initialize(emulator)
    @emulator = emulator
    @received = []
    @lock = Mutex.new
  end

  def call(env)
    body = env["rack.input"].read
    case env["PATH_INFO"]
    when "/sessions"
      token = @emulator.mint_session(JSON.parse(body)["user"])["session_token"]
      [201, { "content-type" => "application/json" }, [JSON.generate(token: token)]]
    when "/webhooks"
      return [400, {}, []] unless Scanctl.verify_signature(body, env["HTTP_SERVICE_SIGNATURE"], @emulator.webhook_secret)

      event = env["HTTP_SERVICE_EVENT_ID"]
      first = @lock.synchronize do
        seen = @received.none? { |e, _| e == event }
        @received << [event, JSON.parse(body)]
        seen
      end
      [first ? 500 : 204, {}, []]
    else
      [404, {}, []]
    end
  end
end

EMULATOR = Scanctl.emulator
TEAM = TeamApp.new(EMULATOR)
SERVER = Scanctl.serve(TEAM)
EMULATOR.set_webhook_url("#{SERVER.url}/webhooks")
Minitest.after_run { SERVER.stop }
if (folder = ENV["SCANCTL_TEST_RECORD"]) # the npm suite checks that this emulator is gone afterwards
  File.write(File.join(folder, "main.json"), JSON.generate(worker: "main", pid: EMULATOR.pid, base_url: EMULATOR.base_url))
end

def post(url, body)
  answer = Net::HTTP.post(URI(url), JSON.generate(body), "content-type" => "application/json")
  [answer.code.to_i, JSON.parse(answer.body)]
end

# A Ruby program in a process of its own, loading the library this one loaded; its output and status.
LIBRARY = File.dirname($LOADED_FEATURES.find { |file| file.end_with?("/scanctl.rb") })

def ruby(code, env = {})
  out, status = Open3.capture2e(env, RbConfig.ruby, "-I", LIBRARY, "-e", code)
  [out, status]
end

class LibraryTest < Minitest::Test
  include Scanctl::Minitest

  def teardown
    TEAM.received.clear
  end

  def test_mints_through_the_teams_own_app
    status, body = post("#{SERVER.url}/sessions", user: "member_1")
    assert_equal 201, status
    assert body["token"].start_with?("vst_")
    assert scanctl.mint_session("member_1")["session_token"].start_with?("vst_")
  end

  def test_a_retried_webhook_is_verified_and_acknowledged
    run = scanctl.simulate_scan("member_1", play_retries: true)
    assert run["ok"]
    assert_equal "recorded", run["scan"]["state"]
    assert_equal 1, run["deliveries"].size
    delivery = run["deliveries"].first
    assert_equal [500, 204], delivery["attempts"].map { |a| a["status"] }
    assert_equal [delivery["event_id"]] * 2, TEAM.received.map(&:first)
    assert_equal run["scan"]["scan_id"], TEAM.received.last[1]["data"]["scan_id"]
    assert_equal 1, run["clock_moves"].size
  end

  def test_each_test_starts_from_the_checkpoint
    assert_equal [], scanctl.deliveries
    assert_equal [], scanctl.json(:get, "/_scanctl/apps/#{scanctl.app_id}/scans")["data"]
  end

  def test_a_tampered_body_is_refused
    body = '{"id":"evt_1"}'
    signature = OpenSSL::HMAC.hexdigest("SHA256", scanctl.webhook_secret, body)
    assert Scanctl.verify_signature(body, signature, scanctl.webhook_secret)
    assert Scanctl.verify_signature(body, " #{signature.upcase} ", scanctl.webhook_secret)
    refute Scanctl.verify_signature("#{body} ", signature, scanctl.webhook_secret)
    refute Scanctl.verify_signature(body, nil, scanctl.webhook_secret)
  end

  def test_wait_for_deliveries_plays_retries_on_the_clock
    run = scanctl.simulate_scan("member_2", wait: false)
    scan_id = run["scan"]["scan_id"]
    attempted = scanctl.wait_for_deliveries(scan_id: scan_id, until: "attempted")
    assert_equal [[500]], attempted.map { |d| d["attempt_log"].map { |a| a["status"] } }
    done = scanctl.wait_for_deliveries(scan_id: scan_id, play_retries: true)
    assert_equal [500, 204], done.first["attempt_log"].map { |a| a["status"] }
    error = assert_raises(Scanctl::Error) { scanctl.wait_for_deliveries(scan_id: "scn_none", timeout: 0.2) }
    assert_match(/timed out/, error.message)
  end

  def test_advance_clock_takes_a_duration_or_seconds
    start = scanctl.clock["offset_ms"]
    assert_operator scanctl.advance_clock("2h")["offset_ms"] - start, :>=, 7_200_000
    assert_operator scanctl.advance_clock(90)["offset_ms"] - start, :>=, 7_290_000
  end

  def test_a_refused_mint_raises_with_the_status
    error = assert_raises(Scanctl::Error) { scanctl.mint_session("") }
    assert_equal 400, error.status
  end

  def test_the_rate_limit_is_off_as_in_every_test_run
    120.times { |n| scanctl.mint_session("member_#{n}") } # serve's default is 100 a second per key
  end
end

class NoRestoreTest < Minitest::Test
  include Scanctl::Minitest
  scanctl_no_restore!

  def test_checkpoint_and_restore_by_name
    scanctl.checkpoint("before")
    scanctl.mint_session("member_3")
    assert_equal "checkpoint_restore", scanctl.restore("before")["object"]
  end
end

class FindingTest < Minitest::Test
  def clean_env(extra = {})
    ENV.keys.grep(/\ASCANCTL_/).to_h { |name| [name, nil] }.merge(extra)
  end

  def test_not_found_names_all_four_ways
    Dir.mktmpdir("scanctl-ruby-test-") do |dir|
      code = "require 'scanctl'; begin; Scanctl.start; rescue Scanctl::NotFound => e; puts e.message; end"
      out, = ruby(code, clean_env("PATH" => "/nonexistent"))
      %w[SCANCTL_BASE_URL SCANCTL_BIN PATH node_modules/.bin/scanctl].each { |name| assert_includes out, name }
      out, = ruby(code, clean_env("PATH" => "/nonexistent", "SCANCTL_BIN" => File.join(dir, "missing")))
      assert_includes out, "SCANCTL_BIN="
      assert_includes out, "not an executable"
    end
  end

  def test_finds_node_modules_bin_above_the_working_folder
    Dir.mktmpdir("scanctl-ruby-test-") do |dir|
      bin = File.join(dir, "node_modules", ".bin", "scanctl")
      FileUtils.mkdir_p(File.dirname(bin))
      File.write(bin, "#!/bin/sh\n")
      File.chmod(0o755, bin)
      FileUtils.mkdir_p(File.join(dir, "deep"))
      out, = ruby("require 'scanctl'; puts Scanctl.find_scanctl(ARGV.fetch(0, #{File.join(dir, 'deep').inspect}))",
                  clean_env("PATH" => "/nonexistent"))
      assert_equal bin, out.strip
    end
  end

  def test_uses_a_running_emulator_from_scanctl_base_url_and_never_stops_it
    code = "require 'scanctl'; e = Scanctl.start; puts [e.base_url, e.app_id, e.secret_key[0, 8], e.pid.inspect].join(' ');" \
           " e.mint_session('member_9'); e.stop"
    out, status = ruby(code, clean_env("SCANCTL_BASE_URL" => EMULATOR.base_url))
    assert status.success?, out
    assert_equal [EMULATOR.base_url, EMULATOR.app_id, "sk_test_", "nil"], out.split
    assert_equal "clock", EMULATOR.clock["object"] # still running
  end

  def test_a_serve_that_fails_to_start_says_why
    Dir.mktmpdir("scanctl-ruby-test-") do |dir|
      fake = File.join(dir, "scanctl")
      File.write(fake, "#!/bin/sh\necho 'scanctl: cannot start: nope' >&2\nexit 2\n")
      File.chmod(0o755, fake)
      out, = ruby("require 'scanctl'; begin; Scanctl.start; rescue Scanctl::Error => e; puts e.message; end",
                  clean_env("SCANCTL_BIN" => fake))
      assert_includes out, "exited 2 before it was ready"
      assert_includes out, "cannot start: nope"
    end
  end

  def test_loads_without_minitest_or_rspec
    out, status = ruby("require 'scanctl'; puts defined?(Minitest).inspect, Scanctl.verify_signature('', '', 'k')")
    assert status.success?, out
    assert_equal %w[nil false], out.split
  end
end
