"""An OpenID Connect provider on 127.0.0.1 for the tests, built on Authlib's authorization server
(the one Flask apps ship): discovery, an authorization endpoint with a sign-in form, the
authorization code grant with PKCE required (S256) and nonces, `client_secret_basic` only, ID
tokens signed RS256 with a `kid`, the key set, and RP-initiated logout.

Run as `python oidcprovider.py PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI`. The tests steer it over
`/admin/…` (JSON): the people it knows, a key rotation, and what the next ID token does wrong (a
key nobody publishes under a published key's id, expired, another audience, another nonce).
"""
import os
import secrets
import sys
import time

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from flask import Flask, jsonify, redirect, request
from joserfc.jwk import RSAKey

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on 127.0.0.1
PORT, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ISSUER = f"http://127.0.0.1:{PORT}"


def new_key():
    return RSAKey.generate_key(2048, parameters={"kid": secrets.token_hex(6), "alg": "RS256", "use": "sig"})


KEYS = [new_key()]           # KEYS[0] signs; all are published
USERS = {}                   # username → claims
CODES = {}                   # code → AuthorizationCode
NEXT = {}                    # what the next ID token does wrong
LOG = {"logouts": [], "tokens": 0, "keys_read": 0}
SECURITY_LOG = []            # what the provider refused, and why


class Client:
    def get_client_id(self):
        return CLIENT_ID

    def get_default_redirect_uri(self):
        return REDIRECT_URI

    def get_allowed_scope(self, scope):
        return " ".join(s for s in scope.split() if s in ("openid", "email", "profile"))

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri == REDIRECT_URI

    def check_client_secret(self, client_secret):
        return secrets.compare_digest(client_secret, CLIENT_SECRET)

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "client_secret_basic"

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


CLIENT = Client()


class AuthorizationCode:
    def __init__(self, code, request, user):
        self.code, self.user, self.auth_time = code, user, int(time.time())
        self.redirect_uri = request.payload.redirect_uri
        self.scope = request.payload.scope
        self.nonce = request.payload.data.get("nonce")
        self.code_challenge = request.payload.data.get("code_challenge")
        self.code_challenge_method = request.payload.data.get("code_challenge_method")

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic"]

    def save_authorization_code(self, code, request):
        CODES[code] = AuthorizationCode(code, request, request.user)

    def query_authorization_code(self, code, client):
        return CODES.get(code)

    def delete_authorization_code(self, authorization_code):
        CODES.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return authorization_code.user


class IDTokens(OpenIDCode):
    def exists_nonce(self, nonce, request):
        return any(code.nonce == nonce for code in CODES.values())

    def resolve_client_private_key(self, client):
        if NEXT.get("forge"):
            return new_key()  # not published, yet under KEYS[0]'s kid (see get_encode_header)
        return KEYS[0]

    def get_encode_header(self, client):
        kid = NEXT.get("kid") or KEYS[0].kid
        return {"alg": "RS256", "kid": kid}

    def get_client_claims(self, client):
        now = int(time.time())
        claims = {"iss": ISSUER, "aud": [NEXT.get("aud", CLIENT_ID)]}
        if NEXT.get("expired"):
            claims.update(iat=now - 7200, exp=now - 3600)
        return claims

    def generate_user_info(self, user, scope):
        LOG["tokens"] += 1
        info = UserInfo(sub=user["sub"], **{k: v for k, v in user.items() if k != "sub"})
        if "nonce" in NEXT:
            info["nonce"] = NEXT["nonce"]
        return info

    def encode_id_token(self, token, request):
        try:
            return super().encode_id_token(token, request)
        finally:
            NEXT.clear()  # one token only


app = Flask(__name__)
server = AuthorizationServer(app, query_client=lambda client_id: CLIENT if client_id == CLIENT_ID else None,
                             save_token=lambda token, request: None)
server.register_grant(CodeGrant, [IDTokens(require_nonce=True), CodeChallenge(required=True)])


@app.get("/.well-known/openid-configuration")
def discovery():
    return jsonify(
        issuer=ISSUER, authorization_endpoint=f"{ISSUER}/authorize", token_endpoint=f"{ISSUER}/token",
        jwks_uri=f"{ISSUER}/jwks", end_session_endpoint=f"{ISSUER}/logout", response_types_supported=["code"],
        subject_types_supported=["public"], id_token_signing_alg_values_supported=["RS256"],
        code_challenge_methods_supported=["S256"], token_endpoint_auth_methods_supported=["client_secret_basic"],
        scopes_supported=["openid", "email", "profile"])


@app.get("/jwks")
def jwks():
    LOG["keys_read"] += 1
    return jsonify(keys=[key.as_dict(private=False) for key in KEYS])


@app.route("/authorize", methods=["GET", "POST"])
def authorize():
    try:
        server.get_consent_grant(end_user=None)
    except Exception as error:  # an authorization request Authlib refuses
        SECURITY_LOG.append(repr(error))
        return f"refused: {error}", 400
    if request.method == "GET":
        action = "/authorize?" + request.query_string.decode()
        return (f'<!doctype html><title>University sign-in</title><form method="post" action="{action}">'
                '<label>User <input name="username" id="idp-user"></label>'
                '<button id="idp-submit">Sign in</button></form>')
    user = USERS.get(request.form.get("username", ""))
    return server.create_authorization_response(grant_user=user)


@app.post("/token")
def token():
    return server.create_token_response()


@app.get("/logout")
def logout():
    LOG["logouts"].append(dict(request.args))
    back = request.args.get("post_logout_redirect_uri")
    return redirect(back) if back else "signed out"


@app.post("/admin/users")
def set_users():
    USERS.clear()
    USERS.update(request.get_json())
    return jsonify(ok=True)


@app.post("/admin/next")
def set_next():
    NEXT.clear()
    NEXT.update(request.get_json())
    return jsonify(ok=True)


@app.post("/admin/rotate")
def rotate():
    KEYS.insert(0, new_key())
    if request.get_json(silent=True, force=True) == {"drop_old": True}:
        del KEYS[1:]
    return jsonify(kid=KEYS[0].kid)


@app.get("/admin/log")
def log():
    return jsonify(dict(LOG, refused=SECURITY_LOG))


if __name__ == "__main__":
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app.run(host="127.0.0.1", port=int(PORT), threaded=True)
