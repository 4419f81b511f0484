package recipe

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"scanctl.local/scanctltest"
)

func TestMintsThroughOurApp(t *testing.T) {
	restored(t)
	answer, err := http.Post(server.URL+"/sessions", "application/json", strings.NewReader(`{"user":"member_1"}`))
	if err != nil || answer.StatusCode != 201 {
		t.Fatal(answer, err)
	}
}

func TestARetriedWebhookIsVerified(t *testing.T) {
	run, err := restored(t).SimulateScan("member_1", scanctltest.PlayRetries()) // moves the clock to the retry
	if err != nil || len(run.Deliveries) != 1 || !reflect.DeepEqual(run.Deliveries[0].Statuses(), []int{500, 204}) {
		t.Fatal(run, err)
	}
	if event := run.Deliveries[0].EventID; !reflect.DeepEqual(app.Received, []string{event, event}) {
		t.Fatal(app.Received)
	}
}

func TestATamperedBodyIsRefused(t *testing.T) {
	if scanctltest.VerifySignature([]byte(`{"id":"evt_1"} `), strings.Repeat("0", 64), emu.WebhookSecret) {
		t.Fatal("accepted")
	}
}

func TestEachTestStartsFromTheCheckpoint(t *testing.T) {
	if deliveries, err := restored(t).Deliveries(scanctltest.Filter{}); err != nil || len(deliveries) != 0 {
		t.Fatal(deliveries, err)
	}
}
