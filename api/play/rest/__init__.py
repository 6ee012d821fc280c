"""The REST layer: views, input validation, answer shapes, the OpenAPI schema, errors as HTTP answers, throttles."""
