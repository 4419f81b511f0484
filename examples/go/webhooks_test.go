// A retried, verified webhook, proven with scanctl. Run: go test ./...
package recipe

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestAFailedWebhookIsRetriedVerifiedAndAcknowledged(t *testing.T) {
	restored(t)
	// --play-retries moves the emulator's clock to each retry when it is due: no sleeping.
	var result struct {
		OK  bool
		Log []struct {
			EventID  string `json:"event_id"`
			ScanID   string `json:"scan_id"`
			Attempts []struct{ Status int }
		}
	}
	if err := scanctlJSON(&result, "scan", "simulate", "--user", "member_go", "--wait", "--play-retries"); err != nil {
		t.Fatal(err)
	}
	if !result.OK || len(result.Log) != 1 {
		t.Fatalf("not acknowledged: %+v", result)
	}
	log := result.Log[0]
	if len(log.Attempts) != 2 || log.Attempts[0].Status != 500 || log.Attempts[1].Status != 204 {
		t.Fatalf("attempts %+v, want 500 then 204", log.Attempts)
	}
	// The receiver saw the same event twice, each signature valid.
	seen := receiver.Deliveries()
	if len(seen) != 2 || seen[0].EventID != log.EventID || seen[1].EventID != log.EventID || !seen[0].Verified || !seen[1].Verified {
		t.Fatalf("receiver saw %+v", seen)
	}
	if data, _ := seen[1].Event["data"].(map[string]any); data["scan_id"] != log.ScanID {
		t.Fatalf("the event is for %v, want %s", data["scan_id"], log.ScanID)
	}
}

func TestEachTestStartsFromTheCheckpoint(t *testing.T) {
	restored(t)
	// The scan of the test above was rolled back with the rest of the state.
	var scans struct{ Data []any }
	if err := scanctlJSON(&scans, "scan", "list", "--user", "member_go"); err != nil {
		t.Fatal(err)
	}
	if len(scans.Data) != 0 || len(receiver.Deliveries()) != 0 {
		t.Fatalf("state left over: %d scans, %d deliveries", len(scans.Data), len(receiver.Deliveries()))
	}
}

func TestMintsASessionWithTheTestSecretKey(t *testing.T) {
	restored(t)
	request, _ := http.NewRequest("POST", env["SCANCTL_BASE_URL"]+"/v1/sessions", strings.NewReader(`{"host_user_ref":"member_go"}`))
	request.Header.Set("Authorization", "Bearer "+env["SCANCTL_SECRET_KEY"])
	request.Header.Set("Content-Type", "application/json")
	answer, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	var session struct {
		SessionToken string `json:"session_token"`
	}
	json.NewDecoder(answer.Body).Decode(&session)
	if answer.StatusCode != 201 || !strings.HasPrefix(session.SessionToken, "vst_") {
		t.Fatalf("mint answered %d %q", answer.StatusCode, session.SessionToken)
	}
}

func TestAChangedBodyFailsTheSignatureCheck(t *testing.T) {
	secret := env["SCANCTL_WEBHOOK_SECRET"]
	body := []byte(`{"id":"evt_1"}`)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	signature := hex.EncodeToString(mac.Sum(nil))
	if !Verify(body, signature, secret) || Verify(append(body, ' '), signature, secret) {
		t.Fatal("Verify accepts a changed body or refuses the signed one")
	}
}
