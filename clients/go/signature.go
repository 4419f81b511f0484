package scanctltest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// VerifySignature checks Service-Signature: the hex HMAC-SHA256 of the raw body bytes, keyed with
// the webhook signing secret (whsec_...). Check the bytes as received, before parsing them; the
// comparison takes constant time.
func VerifySignature(body []byte, signature, secret string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	expected := hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(expected), []byte(strings.ToLower(strings.TrimSpace(signature))))
}
