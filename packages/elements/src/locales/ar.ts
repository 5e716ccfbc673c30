/** Arabic (right to left). Importing this module registers it: `import '@paykit/elements/locales/ar'`. */
import { registerMessages } from '../messages.js';

registerMessages('ar', {
  pay: 'ادفع',
  network: 'تعذّر الوصول إلى المتجر. تحقّق من اتصالك وحاول مرة أخرى.',
  timeout: 'استغرق المتجر وقتًا طويلًا للرد. يُرجى المحاولة مرة أخرى.',
  invalidAnswer: 'أرسل المتجر ردًّا تعذّرت قراءته. يُرجى المحاولة مرة أخرى.',
  failed: 'حدث خطأ ما. يُرجى المحاولة مرة أخرى.',
  unsafeUrl: 'عنوان الدفع غير مسموح به في هذه الصفحة، لذلك توقّفنا.',
  noCheckoutOrigins: 'لا يحتوي هذا الزر على checkout-origins للتحقّق من عنوان الدفع.',
  noReference: 'فُتحت هذه الصفحة دون مرجع للدفع.',
  checking: 'جارٍ تأكيد دفعتك…',
  completed: 'تم استلام الدفعة. شكرًا لك!',
  failedPayment: 'فشل الدفع: لم تكتمل العملية.',
  canceled: 'أُلغيت الدفعة.',
  pending: 'ما زالت دفعتك قيد المعالجة. حدّث هذه الصفحة بعد دقيقة.',
  connect: 'الاتصال بـ Payments',
  connectMisconfigured: 'ينقص زر الاتصال هذا client-id أو scope.',
  connecting: 'جارٍ إتمام الاتصال…',
  connected: 'تم الاتصال بـ ',
  connectCancelled: 'أُلغي الاتصال. لم تتم مشاركة أي شيء.',
  connectFailed: 'لم يكتمل الاتصال',
  stateMissing: 'تنقص هذه الصفحة بيانات الاتصال. ابدأ الاتصال من جديد.',
  stateUnknown: 'لم يبدأ هذا الاتصال في علامة التبويب هذه. ابدأه من جديد.',
  stateExpired: 'استغرق هذا الاتصال وقتًا طويلًا. ابدأه من جديد.',
  stateUsed: 'تمت معالجة هذا الاتصال بالفعل.',
});
