import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type LazyPage = LazyExoticComponent<ComponentType>;

/** The page of each route of CONSOLE_ROUTES, keyed by its path; every one loads on demand. */
export const CONSOLE_PAGES: Record<string, LazyPage> = {
  '/map': lazy(() => import('../features/map/map-page')),
  '/user-management': lazy(() => import('../features/users/users-page')),
  '/role-management': lazy(() => import('../features/roles/roles-page')),
  '/company-management': lazy(() => import('../features/companies/companies-page')),
  '/field-management': lazy(() => import('../features/fields/fields-page')),
  '/plant-management': lazy(() => import('../features/plants/plant-management-page')),
  '/device-management': lazy(() => import('../features/devices/devices-page')),
  '/signals/:deviceId': lazy(() => import('../features/signals/signals-page')),
  '/history-import/:plantId': lazy(() => import('../features/history-import/history-import-page')),
  '/report': lazy(() => import('../features/reports/reports-page')),
  '/fault': lazy(() => import('../features/faults/faults-page')),
  '/fault-detail/:faultId': lazy(() => import('../features/faults/fault-detail-page')),
  '/alarms': lazy(() => import('../features/alarms/alarms-page')),
  '/santraller': lazy(() => import('../features/plants/plants-page')),
  '/santral-detay/:plantId': lazy(() => import('../features/plants/plant-detail-page')),
  '/dashboard': lazy(() => import('../features/dashboard/dashboard-page')),
  '/data': lazy(() => import('../features/data/data-page')),
  '/customized-alarms': lazy(() => import('../features/customized-alarms/customized-alarms-page')),
  '/single-line': lazy(() => import('../features/single-line/single-line-page')),
  '/kameralar': lazy(() => import('../features/cameras/camera-wall-page')),
  '/kamera-detay/:cameraId': lazy(() => import('../features/cameras/camera-detail-page')),
  '/inverter-detay/:inverterId': lazy(() => import('../features/inverters/inverter-detail-page')),
  '/admin-panel': lazy(() => import('../features/admin/admin-page')),
};

/** Pages outside the route table. */
export const LoginPage = lazy(() => import('../features/auth/login-page'));
export const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
export const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
export const ConfirmEmailPage = lazy(() => import('../features/auth/confirm-email-page'));
export const ProfilePage = lazy(() => import('../features/profile/profile-page'));
export const ConsoleLayout = lazy(() => import('./console-layout'));
