"""A Web Push service on 127.0.0.1 for the tests (RFC 8030): it takes what Campus pushes to the
subscriptions it made, checks the VAPID JWT (RFC 8292: ES256 signature by the key in `k`, `aud`
its own origin, `exp` within 24 hours) with `cryptography`, and decrypts the body with `http_ece`
(RFC 8291, aes128gcm) using the browser keys it made for the subscription. Endpoints it was told
are gone answer 410."""
import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    def __init__(self):
        self.keys = {}        # endpoint id → (private key, auth secret)
        self.received = []    # dicts: endpoint, payload, headers
        self.refused = []     # what failed a check, and why
        self.gone = set()
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                name = self.path.rsplit("/", 1)[-1]
                status = service.take(name, body, self.headers)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()

    def subscription(self):
        """A new browser's `PushSubscription.toJSON()`, with keys this service keeps."""
        name = b64url(os.urandom(9))
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self.keys[name] = (private, auth)
        public = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/push/{name}", "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(auth)}}

    def take(self, name, body, headers):
        if name in self.gone:
            return 410
        if name not in self.keys:
            return 404
        problem = self.check_vapid(headers.get("Authorization", ""))
        if problem:
            with self.lock:
                self.refused.append(problem)
            return 403
        if headers.get("Content-Encoding") != "aes128gcm" or not headers.get("TTL"):
            with self.lock:
                self.refused.append(f"headers: {dict(headers)}")
            return 400
        private, auth = self.keys[name]
        try:
            plaintext = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        except Exception as error:  # noqa: BLE001 - any failure to decrypt is the finding
            with self.lock:
                self.refused.append(f"decrypt: {error!r}")
            return 400
        with self.lock:
            self.received.append({"endpoint": name, "payload": json.loads(plaintext),
                                  "ttl": int(headers["TTL"]), "urgency": headers.get("Urgency"),
                                  "topic": headers.get("Topic")})
        return 201

    def check_vapid(self, authorization):
        if not authorization.startswith("vapid "):
            return f"no vapid authorization: {authorization!r}"
        fields = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
        token, key = fields.get("t", ""), fields.get("k", "")
        try:
            header, claims, signature = token.split(".")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            raw = unb64url(signature)
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except (ValueError, InvalidSignature) as error:
            return f"bad signature: {error!r}"
        claims = json.loads(unb64url(claims))
        if json.loads(unb64url(header)).get("alg") != "ES256":
            return "not ES256"
        if claims.get("aud") != self.origin:
            return f"aud {claims.get('aud')} is not {self.origin}"
        if not time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600:
            return f"exp {claims.get('exp')}"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return f"sub {claims.get('sub')}"
        return None

    def wait_for(self, count, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.1)
        with self.lock:
            return list(self.received)
