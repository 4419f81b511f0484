# Run: ruby webhooks_test.rb. Scanctl::Minitest restores the emulator after each test.
require_relative "test_helper"

class WebhooksTest < Minitest::Test
  include Scanctl::Minitest

  def teardown
    APP.received.clear
  end

  def test_mints_through_our_app
    answer = Net::HTTP.post(URI("#{SERVER.url}/sessions"), '{"user": "member_1"}', "Content-Type" => "application/json")
    assert_equal "201", answer.code
    assert JSON.parse(answer.body)["token"].start_with?("vst_")
  end

  def test_a_retried_webhook_is_verified
    run = scanctl.simulate_scan("member_1", play_retries: true) # moves the clock to the retry
    delivery, = run["deliveries"]
    assert_equal [500, 204], delivery["attempts"].map { |attempt| attempt["status"] }
    assert_equal [delivery["event_id"]] * 2, APP.received.map(&:first)
  end

  def test_a_tampered_body_is_refused
    refute Scanctl.verify_signature('{"id":"evt_1"} ', "0" * 64, scanctl.webhook_secret)
  end

  def test_each_test_starts_from_the_checkpoint
    assert_equal [], scanctl.deliveries
  end
end
