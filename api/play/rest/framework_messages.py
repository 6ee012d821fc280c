"""The framework's own messages a client can read (DRF's field checks, its
authentication and paging, a Django validator), marked here so that
makemessages keeps them in this project's catalog with their pt-PT wording:
DRF's "pt" catalog leaves some untranslated (a list's length, a boolean, a
string) and words the others as in Brazil. Nothing imports this module;
each string is DRF's or Django's, character for character, and
tests/api/play/test_play_error_language.py checks that every message of
the fields our inputs use is one of them."""

from django.utils.translation import gettext_noop

FIELD_MESSAGES = [
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Not a valid string."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
    gettext_noop("Null characters are not allowed."),
    gettext_noop("A valid integer is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("\"{input}\" is not a valid choice."),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a date but got a datetime."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop("Expected a list of items but got type \"{input_type}\"."),
    gettext_noop("This list may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
]

REQUEST_MESSAGES = [
    gettext_noop("Malformed request."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Invalid token header. No credentials provided."),
    gettext_noop("Invalid token header. Token string should not contain spaces."),
    gettext_noop("Invalid token header. Token string should not contain invalid characters."),
    gettext_noop("Invalid token."),
    gettext_noop("User inactive or deleted."),
    gettext_noop("Invalid page."),
]
