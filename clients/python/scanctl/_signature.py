import hashlib
import hmac
from typing import Optional, Union


def verify_signature(body: Union[bytes, str], signature: Optional[str], secret: str) -> bool:
    """Whether Service-Signature is the hex HMAC-SHA256 of the raw body keyed with the whsec_ secret.

    Check the bytes as received, before parsing them; the comparison takes constant time.
    """
    if isinstance(body, str):
        body = body.encode()
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, (signature or "").strip().lower())
