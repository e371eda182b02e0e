/**
 * The one route/permission table of the console (spec §2 and §6). The web builds its router and menu
 * from it; the server checks every API route against the same page names.
 */
export const PAGES = [
  'map',
  'user_management',
  'role_management',
  'company_management',
  'field_management',
  'plant_management',
  'device_management',
  'device_signals',
  'report',
  'fault',
  'alarm',
  'plant',
  'dashboard',
  'single_line',
  'admin_panel',
] as const;
export type Page = (typeof PAGES)[number];

export const METHODS = ['view', 'create', 'update', 'delete'] as const;
export type Method = (typeof METHODS)[number];

export interface Permission {
  page: Page;
  method: Method;
}

export interface ConsoleRoute {
  /** react-router path pattern; parameters as `:name`. */
  path: string;
  page: Page;
  inMenu: boolean;
  /** i18n key of the page title (also the menu label). */
  titleKey: string;
  /** Ant Design icon name used by the menu. */
  icon?: string;
}

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { path: '/map', page: 'map', inMenu: true, titleKey: 'pages.map', icon: 'EnvironmentOutlined' },
  {
    path: '/user-management',
    page: 'user_management',
    inMenu: true,
    titleKey: 'pages.userManagement',
    icon: 'UserOutlined',
  },
  {
    path: '/role-management',
    page: 'role_management',
    inMenu: true,
    titleKey: 'pages.roleManagement',
    icon: 'SafetyOutlined',
  },
  {
    path: '/company-management',
    page: 'company_management',
    inMenu: true,
    titleKey: 'pages.companyManagement',
    icon: 'BankOutlined',
  },
  {
    path: '/field-management',
    page: 'field_management',
    inMenu: true,
    titleKey: 'pages.fieldManagement',
    icon: 'AppstoreOutlined',
  },
  {
    path: '/plant-management',
    page: 'plant_management',
    inMenu: true,
    titleKey: 'pages.plantManagement',
    icon: 'BuildOutlined',
  },
  {
    path: '/device-management',
    page: 'device_management',
    inMenu: true,
    titleKey: 'pages.deviceManagement',
    icon: 'HddOutlined',
  },
  { path: '/signals/:deviceId', page: 'device_signals', inMenu: false, titleKey: 'pages.signals' },
  {
    path: '/history-import/:plantId',
    page: 'device_management',
    inMenu: false,
    titleKey: 'pages.historyImport',
  },
  { path: '/report', page: 'report', inMenu: true, titleKey: 'pages.report', icon: 'FileTextOutlined' },
  { path: '/fault', page: 'fault', inMenu: true, titleKey: 'pages.fault', icon: 'ToolOutlined' },
  { path: '/fault-detail/:faultId', page: 'report', inMenu: false, titleKey: 'pages.faultDetail' },
  { path: '/alarms', page: 'alarm', inMenu: true, titleKey: 'pages.alarms', icon: 'AlertOutlined' },
  { path: '/santraller', page: 'plant', inMenu: true, titleKey: 'pages.plants', icon: 'ThunderboltOutlined' },
  { path: '/santral-detay/:plantId', page: 'plant', inMenu: false, titleKey: 'pages.plantDetail' },
  {
    path: '/dashboard',
    page: 'dashboard',
    inMenu: true,
    titleKey: 'pages.dashboard',
    icon: 'DashboardOutlined',
  },
  { path: '/data', page: 'dashboard', inMenu: true, titleKey: 'pages.data', icon: 'LineChartOutlined' },
  {
    path: '/customized-alarms',
    page: 'dashboard',
    inMenu: true,
    titleKey: 'pages.customizedAlarms',
    icon: 'BellOutlined',
  },
  {
    path: '/single-line',
    page: 'single_line',
    inMenu: true,
    titleKey: 'pages.singleLine',
    icon: 'PartitionOutlined',
  },
  // The spec's menu lists cameras but its table had only the detail page: the camera wall.
  {
    path: '/kameralar',
    page: 'dashboard',
    inMenu: true,
    titleKey: 'pages.cameras',
    icon: 'VideoCameraOutlined',
  },
  { path: '/kamera-detay/:cameraId', page: 'dashboard', inMenu: false, titleKey: 'pages.cameraDetail' },
  { path: '/inverter-detay/:inverterId', page: 'dashboard', inMenu: false, titleKey: 'pages.inverterDetail' },
  {
    path: '/admin-panel',
    page: 'admin_panel',
    inMenu: true,
    titleKey: 'pages.adminPanel',
    icon: 'SettingOutlined',
  },
];

/** True when the list holds the (page, method) pair. */
export function hasPermission(
  permissions: readonly Permission[],
  page: Page,
  method: Method = 'view',
): boolean {
  return permissions.some((p) => p.page === page && p.method === method);
}

/** Every (page, method) pair: what the admin role holds. */
export const ALL_PERMISSIONS: readonly Permission[] = PAGES.flatMap((page) =>
  METHODS.map((method) => ({ page, method })),
);
