"""Real e-mail (issue 39): with `--smtp-url` Campus submits mail to an SMTP server — here aiosmtpd
on 127.0.0.1 that requires STARTTLS (a certificate the test made, trusted with `--smtp-ca-file`)
before AUTH — for password resets and for notifications, with a UTF-8 subject, a base64 body and
List-Unsubscribe; the password never reaches the server's log."""
import datetime
import email
import email.header
import email.policy
import ipaddress
import json
import ssl

import pytest

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from conftest import Campus, free_port, run_cli
from test_notifications import changed_schedule, student, wait, write
from test_schedule_changes import FIXTURES, this_term

PASSWORD = "s3cret-smtp-pass"


def certificate(folder):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "smtp.pem", folder / "smtp.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


class Mailbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, envelope.rcpt_tos,
                              email.message_from_bytes(envelope.content, policy=email.policy.default)))
        return "250 OK"


def authenticator(server, session, envelope, mechanism, auth_data):
    return AuthResult(success=isinstance(auth_data, LoginPassword) and auth_data.login == b"campus"
                      and auth_data.password == PASSWORD.encode())


def test_mail_goes_through_an_smtp_server_with_starttls(tmp_path):
    cert_file, key_file = certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
                            authenticator=authenticator, auth_require_tls=True, ready_timeout=10)
    controller.start()
    data_dir = tmp_path / "campus-data"
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    run_cli("import", "iis", str(write(tmp_path / "a" / "151004.json", original)), data_dir=data_dir)
    server = Campus(data_dir, extra=["--smtp-url", f"smtp://campus:{PASSWORD}@localhost:{port}",
                                     "--mail-from", "campus@university.example",
                                     "--smtp-ca-file", str(cert_file)]).start()
    try:
        ann = student(server, "ann@example.org", language="bg")
        answer = server.call("POST", "/api/v1/auth/password-reset", json={"email": "ann@example.org"})
        assert answer.status_code in (200, 202, 204), answer.text
        assert wait(lambda: len(mailbox.messages) == 1), mailbox.messages
        sender, recipients, reset = mailbox.messages[0]
        assert sender == "campus@university.example" and recipients == ["ann@example.org"]
        assert "/reset" in reset.get_content() or "reset" in reset.get_content().lower()

        changed, subject, new_room = changed_schedule(original)
        run_cli("import", "iis", str(write(tmp_path / "b" / "151004.json", changed)), data_dir=data_dir)
        assert wait(lambda: len(mailbox.messages) == 2), mailbox.messages
        _, recipients, notice = mailbox.messages[1]
        assert recipients == ["ann@example.org"]
        assert str(notice["Subject"]) == "Разписанието на 151004 е променено"
        assert notice["Content-Transfer-Encoding"] == "base64"
        assert notice["List-Unsubscribe"].startswith("<http") and "/notifications/unsubscribe" in notice["List-Unsubscribe"]
        assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        body = notice.get_content()
        assert subject in body and "/timetable/groups/151004" in body, body
        # Nothing went to the mail folder, and the password is in no log line.
        assert not (data_dir / "mail").exists() or not list((data_dir / "mail").iterdir())
        assert PASSWORD not in server.read_log()
        assert ann
    finally:
        server.stop()
        controller.stop()


def test_a_bad_smtp_url_stops_the_start(tmp_path):
    bad = Campus(tmp_path / "campus-data", extra=["--smtp-url", "http://mail.example.org", "--mail-from", "a@b.c"])
    with pytest.raises(AssertionError, match="smtp://"):
        bad.start(timeout=10)
