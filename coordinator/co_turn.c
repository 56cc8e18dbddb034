/* co_turn.c: coturn's shared-secret REST credentials: base64(HMAC-SHA1(secret, username)), by libcrypto. */
#include <assert.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

#include "co.h"

void co_turn_password(const char *secret, const char *user, char pass[29])
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    unsigned char *ok =
        HMAC(EVP_sha1(), secret, (int)strlen(secret), (const unsigned char *)user, strlen(user), mac, &n);
    assert(ok && n == 20);
    (void)ok;
    int len = EVP_EncodeBlock((unsigned char *)pass, mac, 20); /* 28 characters and a NUL */
    assert(len == 28);
    (void)len;
}
