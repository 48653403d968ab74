// npm run push:keys: prints a new VAPID key pair (RFC 8292) for Web Push, as the two settings the
// server reads (server/push/web-push-settings.ts), ready to add to its environment. Keep the
// private key secret, and keep the pair: devices subscribed with one key are not pushed to with
// another (each must press "Notify me on this device" again).
import webpush from 'web-push';

const { publicKey, privateKey } = webpush.generateVAPIDKeys();
console.log(
  '# Web Push keys for Localboard (docs/product.md section 12): keep the private key secret.',
);
console.log(`VAPID_PUBLIC_KEY=${publicKey}`);
console.log(`VAPID_PRIVATE_KEY=${privateKey}`);
