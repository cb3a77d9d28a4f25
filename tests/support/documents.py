"""Documents that are not privacy policies, for the tests of what ingest refuses."""

# Terms of service: refused by screening as terms unless forced.
TERMS = """Terms of Service

Welcome to Lumen Notes. These Terms of Service ("Terms") govern your access to and use of the Lumen Notes
websites, apps and services (the "Services"). By creating an account or using the Services you agree to be
bound by these Terms. If you do not agree, do not use the Services.

1. Your account. You must be at least 13 years old to use the Services. You are responsible for all activity
under your account and for keeping your password secure.

2. Acceptable use. You agree not to misuse the Services, including by interfering with their normal operation,
attempting to access them by a method other than the interfaces we provide, or uploading content that is
unlawful, infringing or harmful.

3. Your content. You retain ownership of the notes you create. You grant us a limited license to host, store
and display your content solely to operate and improve the Services.

4. Fees and payment. Paid plans are billed in advance on a monthly or annual basis and are non-refundable,
except where required by law. We may change our fees with thirty days' notice.

5. Termination. We may suspend or terminate your access at any time if you breach these Terms. You may stop
using the Services at any time.

6. Disclaimer of warranties. THE SERVICES ARE PROVIDED "AS IS" WITHOUT WARRANTIES OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NON-INFRINGEMENT.

7. Limitation of liability. TO THE MAXIMUM EXTENT PERMITTED BY LAW, LUMEN NOTES SHALL NOT BE LIABLE FOR ANY
INDIRECT, INCIDENTAL, SPECIAL OR CONSEQUENTIAL DAMAGES ARISING OUT OF YOUR USE OF THE SERVICES.

8. Governing law. These Terms are governed by the laws of the State of Delaware, and any dispute shall be
resolved exclusively in the state or federal courts located in Delaware.

9. Changes. We may modify these Terms from time to time. Continued use of the Services after changes take
effect constitutes acceptance of the revised Terms.
"""
