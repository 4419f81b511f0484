// Package recipe is scanctl's Go recipe: copy this folder into your repository. Run: go test ./...
package recipe

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Verify checks Service-Signature: the hex HMAC-SHA256 of the raw body bytes, keyed with the
// webhook signing secret (whsec_...). Verify before parsing the body.
func Verify(rawBody []byte, signature, secret string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(rawBody)
	expected := hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(expected), []byte(strings.ToLower(strings.TrimSpace(signature))))
}
