/** Arabic (right to left). Importing this module registers it: `import '@paykit/elements/locales/ar'`. */
import { registerMessages } from '../messages.js';

registerMessages('ar', {
  pay: 'ادفع',
  network: 'تعذّر الوصول إلى المتجر. تحقّق من اتصالك وحاول مرة أخرى.',
  timeout: 'استغرق المتجر وقتًا طويلًا للرد. يُرجى المحاولة مرة أخرى.',
  failed: 'حدث خطأ ما. يُرجى المحاولة مرة أخرى.',
  misconfigured: 'هذا الزر غير مُعدّ بشكل صحيح.',
  noReference: 'فُتحت هذه الصفحة دون مرجع للدفع.',
  checking: 'جارٍ تأكيد دفعتك…',
  completed: 'تم استلام الدفعة. شكرًا لك!',
  failedPayment: 'فشل الدفع.',
  canceled: 'أُلغيت الدفعة.',
  stillConfirming: 'ما زلنا نتحقق من دفعتك. يُرجى عدم الدفع مرة أخرى.',
  notCompleted: 'لم تكتمل عملية الدفع.',
  reference: 'المرجع: ',
  tryAgain: 'حاول مرة أخرى',
  checkAgain: 'تحقّق مرة أخرى',
  connect: 'الاتصال بـ Payments',
  connecting: 'جارٍ إتمام الاتصال…',
  connected: 'تم الاتصال بـ ',
  connectCancelled: 'أُلغي الاتصال. لم تتم مشاركة أي شيء.',
  connectFailed: 'لم يكتمل الاتصال. يُرجى الاتصال من جديد.',
  stateUsed: 'تمت معالجة هذا الاتصال بالفعل.',
  connectAgain: 'الاتصال من جديد',
});
