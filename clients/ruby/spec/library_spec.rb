require "spec_helper"

# Examples run in the order written (--order defined in .rspec): each one after the first sees the
# state the restore left.
RSpec.describe "Scanctl::RSpec" do
  it "gives examples the emulator: a mint is a session token" do
    expect(scanctl.mint_session("member_1")["session_token"]).to start_with("vst_")
    scanctl.advance_clock("2h")
  end

  it "restores after each example: the clock and the sessions of the one before are gone" do
    expect(scanctl.clock["offset_ms"]).to eq(0)
    expect(scanctl.request("GET", "/_scanctl/apps/#{scanctl.app_id}/scans")[1]["data"]).to eq([])
  end

  it "keeps an example's state with scanctl_no_restore: true", scanctl_no_restore: true do
    scanctl.advance_clock("90s")
  end

  it "sees what the example marked scanctl_no_restore left" do
    expect(scanctl.clock["offset_ms"]).to eq(90_000)
  end

  it "verifies a signature and refuses a tampered body" do
    body = '{"id":"evt_1"}'
    signature = OpenSSL::HMAC.hexdigest("SHA256", scanctl.webhook_secret, body)
    expect(Scanctl.verify_signature(body, signature, scanctl.webhook_secret)).to be(true)
    expect(Scanctl.verify_signature(body.sub("1", "2"), signature, scanctl.webhook_secret)).to be(false)
  end
end
