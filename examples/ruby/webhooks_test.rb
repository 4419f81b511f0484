# A retried, verified webhook, proven with scanctl. Run: ruby webhooks_test.rb
require_relative "scanctl_helper"

class WebhooksTest < Minitest::Test
  include RestoredAfterEachTest

  def test_a_failed_webhook_is_retried_verified_and_acknowledged
    # --play-retries moves the emulator's clock to each retry when it is due: no sleeping.
    result = scanctl.json("scan", "simulate", "--user", "member_rb", "--wait", "--play-retries")
    assert_equal true, result["ok"]
    assert_equal 1, result["log"].size
    log = result["log"].first
    assert_equal [500, 204], log["attempts"].map { |attempt| attempt["status"] }
    # The receiver saw the same event twice, each signature valid.
    assert_equal [[log["event_id"], true]] * 2, receiver.deliveries.map { |d| [d[:event_id], d[:verified]] }
    assert_equal log["scan_id"], receiver.deliveries.last[:event]["data"]["scan_id"]
  end

  def test_each_test_starts_from_the_checkpoint
    # Whatever another test did (a scan, deliveries) was rolled back with the rest of the state.
    scanctl.json("scan", "simulate", "--user", "member_rb_2", "--wait", "--play-retries")
    scanctl.run("state", "restore", CHECKPOINT)
    assert_equal [], scanctl.json("scan", "list", "--user", "member_rb_2")["data"]
  end

  def test_mints_a_session_with_the_test_secret_key
    answer = Net::HTTP.post(URI("#{scanctl.base_url}/v1/sessions"), { host_user_ref: "member_rb" }.to_json,
                            "Authorization" => "Bearer #{scanctl.env['SCANCTL_SECRET_KEY']}", "Content-Type" => "application/json")
    assert_equal "201", answer.code
    assert JSON.parse(answer.body)["session_token"].start_with?("vst_")
  end

  def test_a_changed_body_fails_the_signature_check
    secret = scanctl.env["SCANCTL_WEBHOOK_SECRET"]
    body = '{"id":"evt_1"}'
    signature = OpenSSL::HMAC.hexdigest("SHA256", secret, body)
    assert verify(body, signature, secret)
    refute verify("#{body} ", signature, secret)
  end
end
